import { type ChildProcess, spawn } from 'node:child_process';
import { request } from 'node:https';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** One GET /healthz; true on a 200. */
export function healthy(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const req = request(
      { host: '127.0.0.1', port, path: '/healthz', rejectUnauthorized: false, agent: false, timeout: 2_000 },
      (res) => {
        res.resume();
        resolve(res.statusCode === 200);
      },
    );
    req.on('error', () => resolve(false));
    req.on('timeout', () => req.destroy());
    req.end();
  });
}

export interface StartedProcess {
  child: ChildProcess;
  port: number;
  /** ms from spawn to the first 200 on /healthz */
  readyMs: number;
  output(): string;
  /** SIGTERM, then waits for the exit; answers ms it took */
  stop(): Promise<number>;
}

/**
 * Spawns `command` (the compiled start unless told otherwise) with `env` and waits for
 * /healthz to answer 200 (and, when `readyText` is given, for that text on its output).
 */
export async function startAndWaitHealthy(
  env: Record<string, string>,
  opts: { command?: string[]; readyText?: RegExp; timeoutMs?: number } = {},
): Promise<StartedProcess> {
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const [cmd = process.execPath, ...args] = opts.command ?? [process.execPath, 'scripts/start.mjs'];
  const started = performance.now();
  const child = spawn(cmd, args, {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (c: Buffer) => {
    out += c.toString('utf8');
  });
  child.stderr?.on('data', (c: Buffer) => {
    out += c.toString('utf8');
  });
  const deadline = started + (opts.timeoutMs ?? 120_000);
  let readyMs = -1;
  while (performance.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the start exited with ${child.exitCode}: ${out}`);
    if ((await healthy(port)) && (!opts.readyText || opts.readyText.test(out))) {
      readyMs = performance.now() - started;
      break;
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  if (readyMs < 0) {
    child.kill('SIGKILL');
    throw new Error(`no /healthz within the time limit: ${out}`);
  }
  return {
    child,
    port,
    readyMs,
    output: () => out,
    async stop() {
      const at = performance.now();
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      return performance.now() - at;
    },
  };
}

export const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
};
