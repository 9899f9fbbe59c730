import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface AppProcess {
  child: ChildProcess;
  output: () => string;
  /** resolves with the exit code (or the signal's name) */
  exited: Promise<number | string>;
  kill(signal: NodeJS.Signals): void;
}

/** A worker process, as the webhook fault tests name it. */
export type WorkerProcess = AppProcess;

/**
 * A real, separate process of one app's `src/main.ts` (`apps/<app>/src/main.ts`);
 * resolves once its output matches `ready`, with the match.
 */
export function startAppProcess(
  app: string,
  env: Record<string, string>,
  ready: RegExp,
): Promise<AppProcess & { ready: RegExpMatchArray }> {
  // node itself (not npx), so that a signal reaches the app and not a wrapper
  return startNodeProcess(['--import', 'tsx', `apps/${app}/src/main.ts`], env, ready, 60_000);
}

/** The README's compiled start (`node scripts/start.mjs`, building when stale); resolves once its output matches `ready`. */
export function startCompiledStart(
  env: Record<string, string>,
  ready: RegExp,
): Promise<AppProcess & { ready: RegExpMatchArray }> {
  return startNodeProcess(['scripts/start.mjs'], env, ready, 120_000);
}

/** Node itself on `args` at the repository's root (a signal reaches the script, not a wrapper), its output gathered. */
export function spawnNode(
  args: string[],
  env: NodeJS.ProcessEnv,
): { child: ChildProcess; output: () => string; exited: Promise<number | string> } {
  const child = spawn(process.execPath, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout?.on('data', (c: Buffer) => {
    out += c.toString();
  });
  child.stderr?.on('data', (c: Buffer) => {
    out += c.toString();
  });
  const exited = new Promise<number | string>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal ?? -1)));
  return { child, output: () => out, exited };
}

/** Node on `args` at the repository's root; resolves once its output matches `ready` (fails after `timeoutMs`). */
export async function startNodeProcess(
  args: string[],
  env: Record<string, string>,
  ready: RegExp,
  timeoutMs: number,
): Promise<AppProcess & { ready: RegExpMatchArray }> {
  const { child, output, exited } = spawnNode(args, {
    ...process.env,
    LOG_LEVEL: 'info',
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    ...env,
  });
  const started = Date.now();
  for (;;) {
    const out = output();
    const match = ready.exec(out);
    if (match) return { child, output, exited, kill: (s) => child.kill(s), ready: match };
    if (child.exitCode !== null || Date.now() - started > timeoutMs) throw new Error(`${args.join(' ')} did not start:\n${out}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Whether a process of that pid is still there. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A real, separate worker process (apps/worker/src/main.ts) on the test database; resolves once it works. */
export function startWorkerProcess(env: Record<string, string>): Promise<WorkerProcess> {
  return startAppProcess('worker', env, /worker started/);
}
