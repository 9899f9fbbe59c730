import { type ChildProcess, spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * The service as it runs in production (`apps/server/src/main.ts`) in a child
 * process, so that the load generator, the receiver and the benchmark's own
 * bookkeeping neither share its event loop nor count in its memory.
 */
export async function startServerProcess(
  url: string,
  dataDir: string,
  env: Record<string, string> = {},
  nodeArgs: string[] = [],
): Promise<{
  child: ChildProcess;
  port: number;
  /** the server's process.memoryUsage(), after a full GC when `gc` */
  memoryUsage(gc?: boolean): Promise<NodeJS.MemoryUsage>;
  stop(): Promise<void>;
}> {
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const child = spawn(process.execPath, [...nodeArgs, '--expose-gc', '--import', 'tsx', 'bench/support/server-probe.ts'], {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: url,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      SEED_DEMO: 'false',
      LOG_LEVEL: 'warn',
      // the limiter on, as shipped, with a limit no benchmark reaches (issue 15: measure what users run)
      RATE_LIMIT_PER_MINUTE: '1000000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (c: Buffer) => {
      out += c.toString();
      if (out.includes('Business operations service on')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`server exited ${code}: ${out}`)));
  });
  return {
    child,
    port,
    memoryUsage(gc = false) {
      return new Promise((resolve) => {
        child.once('message', (m) => resolve((m as { memory: NodeJS.MemoryUsage }).memory));
        child.send(gc ? 'gc' : 'memory');
      });
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** VmRSS (now) and VmHWM (the kernel's own peak) of a process, in bytes. */
export async function processMemory(pid: number): Promise<{ rss: number; hwm: number }> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) * 1024;
  return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
}
