import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { root, startAndWaitHealthy } from '../support/compiled-start.js';

/**
 * The sides of `bench peer` that run on this machine's Node, each in a process of its own, as
 * Directus runs in its own: the service as `pnpm start` runs it (the compiled bundle, not tsx's
 * transpiled sources), each baseline as a small script. None shares an event loop, a heap or a
 * garbage collector with another side, with the benchmark's bookkeeping or with the service the
 * benchmark sets its data up through; each one's CPU is read from /proc.
 */
export interface SideProcess {
  pid: number;
  port: number;
  stop(): Promise<void>;
}

/** user + system CPU of a process so far, in µs (from /proc/<pid>/stat, in clock ticks of 10 ms) */
export function processCpuMicros(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // the fields after the command's name, which may itself hold spaces and parentheses
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

/**
 * --cpu-prof for the whole life of a side's process, when BENCH_PEER_PROFILE names a folder: a folder
 * of its own (`<dir>/<side>/`), a file per thread (tsx's loader has a thread; the largest file is the
 * main thread's)
 */
function profileArgs(name: string, dir: string | undefined): string[] {
  return dir ? ['--cpu-prof', '--cpu-prof-dir', path.join(dir, name)] : [];
}

/**
 * The service, compiled and started as `pnpm start` starts it, on the benchmark's database, with
 * the settings the in-process benchmark service has (no jobs process, no demo data, a rate limit
 * every request stays under, logs at fatal).
 */
export async function startServiceProcess(databaseUrl: string, profileDir?: string): Promise<SideProcess> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bo-bench-peer-'));
  const started = await startAndWaitHealthy(
    {
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      SEED_DEMO: 'false',
      RUN_WORKER: 'false',
      RATE_LIMIT_PER_MINUTE: '1000000',
      LOG_LEVEL: 'fatal',
    },
    { command: [process.execPath, ...profileArgs('ours', profileDir), 'scripts/start.mjs'] },
  );
  return {
    pid: started.child.pid as number,
    port: started.port,
    async stop() {
      await started.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A baseline (bench/peer/baseline-process.ts) with its statements; see BaselineConfig there. */
export function startBaselineProcess(
  name: string,
  config: { url: string; reads: Record<string, { sql: string; params: unknown[]; count?: string }> },
  profileDir?: string,
): Promise<SideProcess> {
  const child = spawn(process.execPath, [...profileArgs(name, profileDir), '--import', 'tsx', 'bench/peer/baseline-process.ts'], {
    cwd: root,
    env: { ...process.env, BO_BASELINE: JSON.stringify(config) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    const onData = (c: Buffer) => {
      out += c.toString('utf8');
      const m = /listening (\d+)/.exec(out);
      if (!m) return;
      child.stdout.off('data', onData);
      resolve({
        pid: child.pid as number,
        port: Number(m[1]),
        async stop() {
          if (child.exitCode !== null || child.signalCode !== null) return;
          const exited = new Promise((r) => child.once('exit', r));
          child.kill('SIGTERM');
          await exited;
        },
      });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (c: Buffer) => {
      out += c.toString('utf8');
    });
    child.once('exit', (code) => reject(new Error(`the ${name} baseline exited with ${code}: ${out}`)));
  });
}
