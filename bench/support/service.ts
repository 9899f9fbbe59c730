import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { applyMigrations } from '@bo/db';
import { ALL_RIGHTS, createCaller, systemClock } from '@bo/domain';
import { type RunningService, startService } from '@bo/server';
import { call } from './setup.js';

const ADMIN_URL = process.env.BENCH_PG_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

export interface BenchService {
  service: RunningService;
  url: string;
  /** the service's data folder (its TLS certificate, uploads) */
  dataDir: string;
  pool: pg.Pool;
  /** a second service process on the same database (stopped with this one); `rateLimitPerMinute` 0: no limit */
  another(rateLimitPerMinute: number): Promise<RunningService>;
  /** creates an environment with an all-rights token; answers its id and request headers */
  environment(name: string): Promise<{ id: string; host: string; v2: Record<string, string>; v3: Record<string, string> }>;
  stop(): Promise<void>;
}

/** The real service over HTTPS against a fresh database on the local PostgreSQL server. */
export async function startBenchService(): Promise<BenchService> {
  const name = `bo_bench_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const u = new URL(ADMIN_URL);
  u.pathname = `/${name}`;
  const url = u.toString();
  await applyMigrations(url);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bo-bench-'));
  const service = await serve(url, dataDir);
  const others: { service: RunningService; dataDir: string }[] = [];
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  // a client the server drops while the database is dropped at the end must not end the run (seen once)
  pool.on('error', () => {});
  const system = createCaller({ prisma: service.database.prisma, principal: { kind: 'system' }, clock: systemClock });
  return {
    service,
    url,
    dataDir,
    pool,
    async environment(envName) {
      const env = await system.admin.environment.create({ name: envName });
      await system.admin.user.create({ environment: envName, email: `bench@${envName}.test`, rights: ALL_RIGHTS });
      const token = await system.admin.token.create({ environment: envName, user: `bench@${envName}.test` });
      return {
        id: env.id,
        host: `${envName}.localhost`,
        v2: { 'authentication-key': token.key, 'authentication-secret': token.secret },
        v3: { authorization: `Bearer ${token.key}:${token.secret}` },
      };
    },
    async another(rateLimitPerMinute) {
      const dir = mkdtempSync(path.join(tmpdir(), 'bo-bench-'));
      const other = await serve(url, dir, { rateLimitPerMinute });
      others.push({ service: other, dataDir: dir });
      return other;
    },
    async stop() {
      for (const o of others) {
        await o.service.stop();
        rmSync(o.dataDir, { recursive: true, force: true });
      }
      await service.stop();
      await pool.end();
      rmSync(dataDir, { recursive: true, force: true });
      const c = new pg.Client({ connectionString: ADMIN_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await c.end();
    },
  };
}

/**
 * The service as shipped on a database, over HTTPS on a free port, without the worker; `databaseUrls`
 * (DATABASE_URLS: several clusters) and `replicaUrls` (DATABASE_REPLICA_URLS) as the benches set them.
 */
export function serve(
  databaseUrl: string,
  dataDir: string,
  opts: { rateLimitPerMinute?: number; databaseUrls?: string[]; replicaUrls?: string[] } = {},
): Promise<RunningService> {
  return startService({
    port: 0,
    host: '127.0.0.1',
    httpPort: null,
    databaseUrl,
    ...(opts.databaseUrls ? { databaseUrls: opts.databaseUrls } : {}),
    ...(opts.replicaUrls ? { databaseReplicaUrls: opts.replicaUrls } : {}),
    dataDir,
    embeddedDbPort: 0,
    tlsCert: undefined,
    tlsKey: undefined,
    trustProxy: false,
    seedDemo: false,
    logLevel: 'fatal',
    runWorker: false,
    rateLimitPerMinute: opts.rateLimitPerMinute ?? 1_000_000,
  });
}

/** Inserts `count` organizations (with a visiting address) for one environment in a few SQL statements. */
export async function insertOrganizations(pool: pg.Pool, environmentId: string, count: number, prefix = 'Org'): Promise<void> {
  await pool.query(
    `INSERT INTO organization (id, environment_id, name, email, relation_number, created_at, updated_at)
     SELECT 'organization:' || md5($1 || g::text), $1, $3 || ' ' || lpad(g::text, 7, '0'), 'org' || g || '@example.com',
            'R-' || g, now() - (g || ' seconds')::interval, now() - (g || ' seconds')::interval
     FROM generate_series(1, $2::int) g`,
    [environmentId, count, prefix],
  );
  await pool.query(
    `INSERT INTO organization_address (id, environment_id, organization_id, kind, line_1, locality, country_code)
     SELECT 'address:' || md5(o.id), o.environment_id, o.id, 'visiting', 'Street ' || right(o.id, 4), 'City', 'NL'
     FROM organization o WHERE o.environment_id = $1`,
    [environmentId],
  );
  // vacuumed as autovacuum would after such a load (an index-only scan needs the visibility map), and analyzed
  for (const table of ['organization', 'organization_address']) await pool.query(`VACUUM ANALYZE ${table}`);
}

/** A text custom field `tier` on organizations, with a value on every organization of the environment. */
export async function withCustomFieldValues(
  bench: BenchService,
  env: Awaited<ReturnType<BenchService['environment']>>,
): Promise<void> {
  const field = await call(bench.service.port, env.host, env.v2, 'POST', '/api/v2/crm/organizationcustomfields', {
    name: 'tier',
    label: 'Tier',
    type: 'text',
  });
  await bench.pool.query(
    `INSERT INTO custom_field_value (environment_id, custom_field_id, entity_id, value)
     SELECT $1, $2, o.id, 'tier-' || (length(o.id) % 5) FROM organization o WHERE o.environment_id = $1`,
    [env.id, (field.body as { data: { id: string } }).data.id],
  );
  await bench.pool.query('ANALYZE custom_field_value');
}

/**
 * An environment with 1,000 organizations and the v2 read a profiling aid loads: one record by id
 * (`byId`) or the first page of 100 (`page`), as the URL and headers the load generator sends.
 */
export async function organizationRead(
  bench: BenchService,
  envName: string,
  read: 'byId' | 'page',
): Promise<{ url: string; headers: Record<string, string> }> {
  const env = await bench.environment(envName);
  await insertOrganizations(bench.pool, env.id, 1000);
  const [first] = (
    await bench.pool.query<{ id: string }>('SELECT id FROM organization WHERE environment_id = $1 LIMIT 1', [env.id])
  ).rows;
  const base = `https://127.0.0.1:${bench.service.port}/api/v2/crm/organization`;
  return { url: read === 'byId' ? `${base}/${first?.id}` : `${base}?limit=100`, headers: { ...env.v2, host: env.host } };
}
