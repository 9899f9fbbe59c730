import cluster, { type Worker } from 'node:cluster';
import type { Logger } from 'pino';
import { watchLaunchers } from './launcher.js';
import { startMetricsServer } from './metrics.js';

/**
 * WEB_CONCURRENCY=N: N HTTP processes on one port (node:cluster; the primary
 * accepts and hands connections round-robin), sharing nothing but PostgreSQL
 * and DATA_DIR's files. Process 1 starts first and alone: it migrates, seeds
 * the demo and prints the banner, and it is the one that works background jobs
 * (RUN_WORKER), so scheduled jobs run once; the others start after it, serve
 * requests and only enqueue. A process that dies is replaced with the same
 * number (so process 1's replacement works the jobs again). SIGTERM to the
 * primary stops them all within 9 s.
 */

/** The environment variable that tells a cluster process its number (1..N). */
export const CLUSTER_PROCESS_ENV = 'BO_CLUSTER_PROCESS';

/** A clean stop ends within 10 s: the processes get 9 s of their own, the primary kills what is left just after. */
const PRIMARY_STOP_DEADLINE_MS = 9_400;
/** A process that dies this soon after its start is replaced only after a pause (no tight crash loop). */
const QUICK_DEATH_MS = 5_000;
const REPLACE_PAUSE_MS = 1_000;

/** This process's number in the cluster (1..N), or null when it is not a cluster process. */
export function clusterProcessNumber(): number | null {
  if (!cluster.isWorker) return null;
  const n = Number(process.env[CLUSTER_PROCESS_ENV]);
  return Number.isInteger(n) && n > 0 ? n : null;
}

/** Sent by a cluster process to the primary once it serves. */
interface ReadyMessage {
  type: 'bo-ready';
  port: number;
}

export function reportReady(port: number): void {
  process.send?.({ type: 'bo-ready', port } satisfies ReadyMessage);
}

function isReady(m: unknown): m is ReadyMessage {
  return typeof m === 'object' && m !== null && (m as { type?: unknown }).type === 'bo-ready';
}

/**
 * The primary: forks process 1, waits until it serves, forks the rest, replaces
 * any that dies, and stops them all on SIGINT, SIGTERM or SIGHUP (or when the
 * start command's launchers are gone). Resolves never; exits the process.
 */
export async function runPrimary(
  processes: number,
  log: Logger,
  /** METRICS_PORT: the primary serves /metrics, the sum over its processes (metrics.ts) */
  metrics: { port: number; host: string } | null = null,
): Promise<never> {
  const workers = new Map<number, Worker>();
  const readyOnce = new Set<number>();
  let stopping = false;

  const fork = (n: number): Worker => {
    const startedAt = Date.now();
    const worker = cluster.fork({ [CLUSTER_PROCESS_ENV]: String(n) });
    workers.set(n, worker);
    worker.on('message', (m: unknown) => {
      if (!isReady(m)) return;
      readyOnce.add(n);
      const pid = worker.process.pid;
      log.info(
        { process: n, workerPid: pid, port: m.port },
        `process ${n} of ${processes} (pid ${pid}) serves on port ${m.port}`,
      );
      worker.emit('bo-ready');
    });
    worker.on('exit', (code, signal) => {
      if (workers.get(n) === worker) workers.delete(n);
      if (stopping) {
        if (workers.size === 0) process.exit();
        return;
      }
      if (!readyOnce.has(n)) {
        // it never served: a start that fails (configuration, database) fails the same way again
        log.error({ process: n, code, signal }, `process ${n} failed to start; stopping`);
        stop('a process failed to start', 1);
        return;
      }
      const quick = Date.now() - startedAt < QUICK_DEATH_MS;
      log.warn({ process: n, code, signal }, `process ${n} exited; starting another`);
      setTimeout(
        () => {
          if (!stopping) fork(n);
        },
        quick ? REPLACE_PAUSE_MS : 0,
      );
    });
    return worker;
  };

  const stop = (why: string, exitCode = 0) => {
    if (stopping) return;
    stopping = true;
    log.info(`${why}: stopping ${workers.size} processes`);
    setTimeout(() => {
      for (const w of workers.values()) w.process.kill('SIGKILL');
      log.warn('the stop took too long; exiting now');
      process.exit(1);
    }, PRIMARY_STOP_DEADLINE_MS).unref();
    process.exitCode = exitCode;
    if (workers.size === 0) process.exit();
    for (const w of workers.values()) w.process.kill('SIGTERM');
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(signal, () => stop(signal));
  if (process.env.STOP_WITH_LAUNCHER !== 'false') watchLaunchers(() => stop('the start command has exited'));

  if (metrics) {
    const served = await startMetricsServer({ ...metrics, own: false });
    log.info(`metrics of all ${processes} processes on http://${metrics.host}:${served.port}/metrics`);
  }
  // process 1 migrates and seeds alone, so the others find the database ready
  const first = fork(1);
  await new Promise<void>((resolve) => first.once('bo-ready', () => resolve()));
  for (let n = 2; n <= processes && !stopping; n += 1) fork(n);
  return new Promise<never>(() => {});
}
