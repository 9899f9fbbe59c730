import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { adminUrl, databaseUrl } from './pg-urls.js';

export interface TestDatabase {
  name: string;
  url: string;
  /** a plain pg client on the database, for checks that bypass the service */
  query<T extends pg.QueryResultRow = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  drop(): Promise<void>;
}

/** A fresh, migrated database on the local PostgreSQL server, copied from the run's template. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const name = `bo_t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl() });
  await admin.connect();
  // copying a template needs it idle; another file may be copying it at the same moment
  for (let attempt = 0; ; attempt += 1) {
    try {
      await admin.query(`CREATE DATABASE "${name}" TEMPLATE "${inject('templateDatabase')}"`);
      break;
    } catch (err) {
      if (attempt > 50 || !String(err).includes('being accessed by other users')) throw err;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  await admin.end();
  const url = databaseUrl(name);
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  pool.on('error', () => {});
  return {
    name,
    url,
    async query(sql, params) {
      return (await pool.query(sql, params as unknown[])).rows;
    },
    async drop() {
      await pool.end();
      const c = new pg.Client({ connectionString: adminUrl() });
      await c.connect();
      // pools report ended before their sockets close: let them go rather than kill them
      // (a killed connection that is still closing raises an error nobody listens to)
      for (let i = 0; i < 40; i += 1) {
        const open = await c.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [name]);
        if (open.rows[0]?.n === 0) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await c.end();
    },
  };
}
