import { configFromEnv } from './config.js';
import { startService } from './start.js';

const config = configFromEnv();
const service = await startService(config).catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});

const where = config.databaseUrl ? 'the PostgreSQL server in DATABASE_URL' : `the embedded database in ${config.dataDir}`;
console.log(`Business operations service on ${service.url} (data: ${where}).`);
if (service.demo) {
  const base = `https://demo.localhost:${service.port}`;
  const { key, secret } = service.demo;
  console.log(`
Demo environment "demo", user admin@demo.local, a fresh token (its secret is shown only now):
  v2: curl -k -H 'Authentication-Key: ${key}' -H 'Authentication-Secret: ${secret}' '${base}/api/v2/crm/organization?limit=5&metadata=count'
  v3: curl -k -H 'Authorization: Bearer ${key}:${secret}' '${base}/api/v3/organization.list'
Another token: pnpm admin token create --environment demo --user admin@demo.local --json`);
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    service.log.info(`${signal}: stopping`);
    void service.stop().then(() => process.exit(0));
  });
}
