import type { Logger } from 'pino';
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
  if (process.env.STOP_WITH_LAUNCHER !== 'false') watchLaunchers(() => stop('the start command has exited'));
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

/** An HTTP process configured from the environment (README, Configuration), announced once it listens. */
export async function serveFromEnv<S extends HttpService<RunningJobs>>(
  title: string,
  mounts: HttpMount[],
  start: (config: ServiceConfig) => Promise<S>,
): Promise<S> {
  const config = configFromEnv();
  const service = await runMain(() => start(config), { stop: (s) => s.stop() });
  announce(title, config, service, mounts);
  return service;
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
