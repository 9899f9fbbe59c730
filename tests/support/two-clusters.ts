import { rmSync } from 'node:fs';
import type { TestDatabase } from './database.js';
import { type PgClusters, startClusters } from './pg-cluster.js';
import { startTestService, type TestService } from './service.js';

/** Two PostgreSQL servers of the test's own, each with a database `bo`, and the service placed on both (DATABASE_URLS). */
export interface TwoClusters {
  first: PgClusters;
  second: PgClusters;
  service: TestService;
  /** a statement on a cluster's `bo` database */
  q<T extends Record<string, unknown>>(cluster: PgClusters, sql: string, params?: unknown[]): Promise<T[]>;
  /** an environment's id, by its name (read on the first cluster, where environments live) */
  environmentId(name: string): Promise<string>;
  /** the service, its data folder and both servers */
  stop(): Promise<void>;
}

export async function startTwoClusters(
  opts: Omit<Parameters<typeof startTestService>[0] & object, 'db' | 'databaseUrls'> = {},
): Promise<TwoClusters> {
  const [first, second] = await Promise.all([startClusters(), startClusters()]);
  const q = <T extends Record<string, unknown>>(c: PgClusters, sql: string, params: unknown[] = []) =>
    c.primary.query<T>(sql, params, 'bo');
  try {
    for (const c of [first, second]) await c.primary.query('CREATE DATABASE bo');
    const db: TestDatabase = {
      name: 'bo',
      url: first.primary.url('bo'),
      query: (sql, params) => q(first, sql, params ?? []),
      drop: async () => {},
    };
    // the service migrates both clusters on start
    const service = await startTestService({ ...opts, db, databaseUrls: [first.primary.url('bo'), second.primary.url('bo')] });
    return {
      first,
      second,
      service,
      q,
      async environmentId(name) {
        const [row] = await q<{ id: string }>(first, 'SELECT id FROM environment WHERE name = $1', [name]);
        if (!row) throw new Error(`no environment ${name}`);
        return row.id;
      },
      async stop() {
        await service.stopService();
        rmSync(service.dataDir, { recursive: true, force: true });
        await Promise.all([first.destroy(), second.destroy()]);
      },
    };
  } catch (err) {
    await Promise.all([first.destroy(), second.destroy()]);
    throw err;
  }
}
