import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface WorkerProcess {
  child: ChildProcess;
  output: () => string;
  /** resolves with the exit code (or the signal's name) */
  exited: Promise<number | string>;
  kill(signal: NodeJS.Signals): void;
}

/** A real, separate worker process (apps/worker/src/main.ts) on the test database; resolves once it works. */
export async function startWorkerProcess(env: Record<string, string>): Promise<WorkerProcess> {
  // node itself (not npx), so that a signal reaches the worker and not a wrapper
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/worker/src/main.ts'], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: 'info', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (c: Buffer) => {
    out += c.toString();
  });
  child.stderr?.on('data', (c: Buffer) => {
    out += c.toString();
  });
  const exited = new Promise<number | string>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal ?? -1)));
  const started = Date.now();
  while (!out.includes('worker started')) {
    if (child.exitCode !== null || Date.now() - started > 60_000) throw new Error(`worker did not start:\n${out}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return { child, output: () => out, exited, kill: (s) => child.kill(s) };
}
