import type { Logger } from 'pino';
import { configFromEnv, type ServiceConfig } from './config.js';
import type { HttpMount } from './http-app.js';
import { type HttpService, type ProcessOptions, type RunningJobs, startHttpService } from './start.js';

/**
 * A process started from the command line: a failed start prints its reason and
 * exits 1; SIGINT or SIGTERM stops it gracefully (`stop`), then it exits 0.
 */
export async function runMain<P extends { log: Logger }>(
  start: () => Promise<P>,
  opts: { stop(p: P): Promise<void>; stopping?: string },
): Promise<P> {
  const running = await start().catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      running.log.info(`${signal}: ${opts.stopping ?? 'stopping'}`);
      void opts.stop(running).then(() => process.exit(0));
    });
  }
  return running;
}

/** The start-up message of an HTTP process: where it listens, on which data, and how to try it with the demo token. */
export function announce(title: string, config: ServiceConfig, service: HttpService<RunningJobs>, mounts: HttpMount[]): void {
  const where = config.databaseUrl ? 'the PostgreSQL server in DATABASE_URL' : `the embedded database in ${config.dataDir}`;
  console.log(`${title} on ${service.url} (data: ${where}).`);
  if (!service.demo) return;
  const base = `https://demo.localhost:${service.port}`;
  const tries = mounts.flatMap((m) => (m.tryIt ? [`  ${m.tryIt(base, service.demo as { key: string; secret: string })}`] : []));
  console.log(`
Demo environment "demo", user admin@demo.local, a fresh token (its secret is shown only now):
${tries.join('\n')}
Another token: pnpm admin token create --environment demo --user admin@demo.local --json`);
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
