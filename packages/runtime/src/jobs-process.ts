import cluster, { type Worker } from 'node:cluster';
import type { Logger } from 'pino';

/**
 * The background jobs of a single-process start on a PostgreSQL server, in a process of their own
 * (the same start script, forked with node:cluster, which serves no HTTP): webhook deliveries go
 * strictly one after another per subscription, and sharing the API's event loop they advanced one
 * step per turn of a loop full of requests (about 160 deliveries/s while the API took 450
 * creates/s, against 850/s once it was idle). Their own process gets its own share of the CPU.
 * It starts once the HTTP process has migrated the database, is started again when it dies, and
 * stops with the HTTP process; it stops by itself when that one is gone (its IPC channel closes).
 */

/** The environment variable that makes a forked process the jobs process. */
export const JOBS_PROCESS_ENV = 'BO_JOBS_PROCESS';

const QUICK_DEATH_MS = 5_000;
const RESTART_PAUSE_MS = 1_000;

export function isJobsProcess(): boolean {
  return cluster.isWorker && process.env[JOBS_PROCESS_ENV] === '1';
}

export interface JobsProcess {
  /** its pid, while it runs */
  pid(): number | undefined;
  /** SIGTERM, and waits until it has exited (it finishes the jobs in flight) */
  stop(): Promise<void>;
}

export function forkJobsProcess(log: Logger): JobsProcess {
  let stopping = false;
  let current: Worker | null = null;
  let exited: Promise<void> = Promise.resolve();

  const start = () => {
    const startedAt = Date.now();
    const worker = cluster.fork({ [JOBS_PROCESS_ENV]: '1' });
    current = worker;
    exited = new Promise((resolve) => {
      worker.once('exit', (code, signal) => {
        if (current === worker) current = null;
        resolve();
        if (stopping) return;
        log.warn({ code, signal }, 'the jobs process exited; starting another');
        setTimeout(() => stopping || start(), Date.now() - startedAt < QUICK_DEATH_MS ? RESTART_PAUSE_MS : 0).unref();
      });
    });
    log.info({ workerPid: worker.process.pid }, `jobs process (pid ${worker.process.pid}) started`);
  };
  start();

  return {
    pid: () => current?.process.pid,
    async stop() {
      stopping = true;
      current?.process.kill('SIGTERM');
      await exited;
    },
  };
}
