import { configFromEnv } from './config.js';
import { startService } from './start.js';
import { watchLaunchers } from './launcher.js';

const config = configFromEnv();
const service = await startService(config).catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});

const where = config.databaseUrl ? 'the PostgreSQL server in DATABASE_URL' : `the embedded database in ${config.dataDir}`;
console.log(`Business operations service on ${service.url} (data: ${where}).`);
/** How to run the admin CLI from the checkout, as the README's set-up leaves it (no global pnpm). */
const ADMIN = 'npx -y pnpm@10.34.9 admin';
if (service.demo) {
  const base = `https://demo.localhost:${service.port}`;
  const make = `${ADMIN} token create --environment demo --user ${service.demo.user} --json`;
  if (service.demo.token) {
    const { key, secret } = service.demo.token;
    console.log(`
Demo environment "demo", user ${service.demo.user}, a token (its secret is shown only now, on the first start):
  v2: curl -k -g -H 'Authentication-Key: ${key}' -H 'Authentication-Secret: ${secret}' '${base}/api/v2/crm/organization?limit=5&metadata=count'
  v3: curl -k -H 'Authorization: Bearer ${key}:${secret}' '${base}/api/v3/organization.list'
Another token: ${make}`);
  } else {
    console.log(`
Demo environment "demo" at ${base} (user ${service.demo.user}). A token is made on the first start only;
to make another:  ${make}`);
  }
}

/** A clean stop must end within 10 s (a process manager's usual grace): past 9 s, exit anyway. */
const STOP_DEADLINE_MS = 9_000;
let stopping = false;
const stop = (why: string) => {
  if (stopping) return;
  stopping = true;
  service.log.info(`${why}: stopping`);
  setTimeout(() => {
    service.log.warn('the stop took too long; exiting now');
    process.exit(1);
  }, STOP_DEADLINE_MS).unref();
  void service.stop().then(
    () => process.exit(0),
    (err: unknown) => {
      service.log.error({ err }, 'stop failed');
      process.exit(1);
    },
  );
};
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(signal, () => stop(signal));
// npx → pnpm → tsx does not pass SIGTERM on: when the command that started us is gone, stop too
if (process.env.STOP_WITH_LAUNCHER !== 'false') watchLaunchers(() => stop('the start command has exited'));
