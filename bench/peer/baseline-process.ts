import type { IncomingMessage } from 'node:http';
import pg from 'pg';
import { startBaselineServer } from '../support/baseline.js';

/**
 * One baseline of `bench peer` in a process of its own, as the service and Directus run in theirs
 * (bench/peer/sides.ts starts it): plain pg + node:https answering each read (`/<read>`) with the
 * rows of its statement. BO_BASELINE (JSON): the database URL, each read's statement and
 * parameters, and `count`: a statement whose `n` is added to each row as `total`, run beside the
 * read's own (the same-data baseline's prefix read). Prints `listening <port>` when it listens.
 */
interface BaselineConfig {
  url: string;
  reads: Record<string, { sql: string; params: unknown[]; count?: string }>;
}

const config = JSON.parse(process.env.BO_BASELINE ?? '{}') as BaselineConfig;
const pool = new pg.Pool({ connectionString: config.url, max: 4 });
pool.on('error', () => {});

const server = await startBaselineServer(async (req: IncomingMessage) => {
  const name = (req.url ?? '/').slice(1).split('?')[0] ?? '';
  const read = config.reads[name];
  if (!read) throw new Error(`no read ${req.url}`);
  if (!read.count) return pool.query(read.sql, read.params);
  // the page and its count side by side, as the service reads them
  const [page, count] = await Promise.all([
    pool.query(read.sql, read.params),
    pool.query<{ n: number }>(read.count, read.params),
  ]);
  return { rows: page.rows.map((r: Record<string, unknown>) => ({ ...r, total: count.rows[0]?.n })) };
});
process.stdout.write(`listening ${server.port}\n`);

// a normal exit, so that --cpu-prof writes its profile
process.once('SIGTERM', () => {
  server.close();
  void pool.end().finally(() => process.exit(0));
});
