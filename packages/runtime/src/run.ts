import cluster from 'node:cluster';
import pino, { type Logger } from 'pino';
import { clusterProcessNumber, reportReady, runPrimary } from './cluster.js';
import { forkJobsProcess, isJobsProcess, type JobsProcess } from './jobs-process.js';
import { configFromEnv, type ServiceConfig } from './config.js';
import type { HttpMount } from './http-app.js';
import { watchLaunchers } from './launcher.js';
import { type HttpService, type ProcessOptions, type RunningJobs, startHttpService } from './start.js';

/** A clean stop must end within 10 s (a process manager's usual grace): past 9 s, exit anyway. */
const STOP_DEADLINE_MS = 9_000;

/**
 * A process started from the command line: a failed start prints its reason and
 * exits 1; SIGINT, SIGTERM or SIGHUP stops it gracefully (`stop`), then it exits 0,
 * within 9 s. Started through npx → pnpm → tsx, which does not pass SIGTERM on, it
 * also stops when the command that started it is gone (STOP_WITH_LAUNCHER=false: not).
 */
export async function runMain<P extends { log: Logger }>(
  start: () => Promise<P>,
  opts: { stop(p: P): Promise<void>; stopping?: string },
): Promise<P> {
  const running = await start().catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
  let stopping = false;
  const stop = (why: string) => {
    if (stopping) return;
    stopping = true;
    running.log.info(`${why}: ${opts.stopping ?? 'stopping'}`);
    setTimeout(() => {
      running.log.warn('the stop took too long; exiting now');
      process.exit(1);
    }, STOP_DEADLINE_MS).unref();
    void opts.stop(running).then(
      () => process.exit(0),
      (err: unknown) => {
        running.log.error({ err }, 'stop failed');
        process.exit(1);
      },
    );
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(signal, () => stop(signal));
  // a cluster process has the primary above it, which watches the launchers (and ends it when they are gone)
  if (process.env.STOP_WITH_LAUNCHER !== 'false' && !cluster.isWorker) watchLaunchers(() => stop('the start command has exited'));
  return running;
}

/** How to run the admin CLI from the checkout, as the README's set-up leaves it (no global pnpm). */
export const ADMIN_COMMAND = 'npx -y pnpm@10.34.9 admin';

/** The start-up message of an HTTP process: where it listens, on which data, and how to try it with the demo token. */
export function announce(title: string, config: ServiceConfig, service: HttpService<RunningJobs>, mounts: HttpMount[]): void {
  const where = config.databaseUrl ? 'the PostgreSQL server in DATABASE_URL' : `the embedded database in ${config.dataDir}`;
  console.log(`${title} on ${service.url} (data: ${where}).`);
  const demo = service.demo;
  if (!demo) return;
  const base = `https://demo.localhost:${service.port}`;
  const make = `${ADMIN_COMMAND} token create --environment demo --user ${demo.user} --json`;
  const token = demo.token;
  if (!token) {
    console.log(`
Demo environment "demo" at ${base} (user ${demo.user}). A token is made on the first start only;
to make another:  ${make}`);
    return;
  }
  const tries = mounts.flatMap((m) => (m.tryIt ? [`  ${m.tryIt(base, token)}`] : []));
  console.log(`
Demo environment "demo", user ${demo.user}, a token (its secret is shown only now, on the first start):
${tries.join('\n')}
Another token: ${make}`);
}

/**
 * The number of HTTP processes to run: WEB_CONCURRENCY, clamped to 1 (with a
 * warning) on the embedded database, whose single PGlite session one process
 * holds: more processes would only queue on it.
 */
export function processCount(config: ServiceConfig, warn: (msg: string) => void): number {
  const wanted = config.webConcurrency ?? 1;
  if (wanted > 1 && !config.databaseUrl) {
    warn(
      `WEB_CONCURRENCY=${wanted} ignored: the embedded database is one session in one process; running 1 process (set DATABASE_URL to run several)`,
    );
    return 1;
  }
  return wanted;
}

/**
 * An HTTP process configured from the environment (README, Configuration), announced once it listens.
 * With WEB_CONCURRENCY=N (N > 1, on a PostgreSQL server) this process becomes the primary of N
 * (cluster.ts) and never returns; each of them runs this same function as process 1..N.
 */
export async function serveFromEnv<S extends HttpService<RunningJobs>>(
  title: string,
  mounts: HttpMount[],
  start: (config: ServiceConfig) => Promise<S>,
  /** the jobs alone (no HTTP, no demo): given, a single-process start on a server works them in their own process */
  jobsAlone?: (config: ServiceConfig) => Promise<{ log: Logger; close(): Promise<void> }>,
): Promise<S | null> {
  const config = configFromEnv();
  if (isJobsProcess() && jobsAlone) {
    // the HTTP process above it stops it with SIGTERM; gone without a word (killed), its IPC channel closes
    process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));
    await runMain(() => jobsAlone(config), { stop: (jobs) => jobs.close(), stopping: 'finishing the jobs in flight' });
    return null;
  }
  if (cluster.isPrimary) {
    const processes = processCount(config, (msg) => console.warn(msg));
    if (processes > 1) {
      const log = pino({ level: config.logLevel });
      log.info(`${title}: starting ${processes} processes (WEB_CONCURRENCY)`);
      const metrics = config.metricsPort != null ? { port: config.metricsPort, host: config.metricsHost ?? '127.0.0.1' } : null;
      return runPrimary(processes, log, metrics);
    }
  }
  const number = clusterProcessNumber();
  // in a cluster, process 1 alone seeds the demo and works the jobs: scheduled jobs are not doubled
  const own = number === null || number === 1 ? config : { ...config, runWorker: false, seedDemo: false };
  // one process on a PostgreSQL server: the jobs in a process of their own (jobs-process.ts)
  const separateJobs = !!jobsAlone && jobsInOwnProcess(own, number);
  let jobs: JobsProcess | null = null;
  const service = await runMain(() => start(separateJobs ? { ...own, runWorker: false } : own), {
    stop: async (s) => {
      await Promise.all([s.stop(), jobs?.stop()]);
    },
  });
  // forked once this process has migrated the database
  if (separateJobs) jobs = forkJobsProcess(service.log);
  if (number === null || number === 1) announce(title, own, service, mounts);
  if (number !== null) reportReady(service.port);
  return service;
}

/**
 * Whether an HTTP process hands its jobs to a process of their own: one process (not a cluster's),
 * working jobs, on a PostgreSQL server (the embedded database is one session, held by this
 * process), unless WORKER_IN_PROCESS says otherwise.
 */
export function jobsInOwnProcess(config: ServiceConfig, clusterNumber: number | null): boolean {
  return clusterNumber === null && config.runWorker && !!config.databaseUrl && !config.workerInProcess;
}

/**
 * Some of the wires alone (apps/api-v2, apps/api-v3): it enqueues background
 * jobs but never works them; worker processes (apps/worker) do, whatever RUN_WORKER says.
 */
export function serveAlone<W extends RunningJobs>(title: string, mounts: HttpMount[], jobs: ProcessOptions<W>['jobs']) {
  return serveFromEnv(title, mounts, (config) =>
    startHttpService(config, { mounts, jobs, work: false, seedDemo: config.seedDemo }),
  );
}
