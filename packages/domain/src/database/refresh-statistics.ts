import { z } from 'zod';
import { defineJob, type JobContext } from '../shared/jobs.js';

/** Every minute (a schedule of the worker's): refreshStatistics. */
export const refreshStatisticsJob = defineJob({ name: 'database.refresh-statistics', version: 1, payload: z.object({}) });

/**
 * Tables whose rows changed this much since their last ANALYZE get analyzed again:
 * PostgreSQL's own autovacuum rule (50 rows + 10%), which the embedded database (PGlite
 * runs no autovacuum) and a server with autovacuum off would otherwise never apply.
 * Without fresh statistics the planner picks sequential scans for the list queries.
 */
export const ANALYZE_THRESHOLD = { rows: 50, fraction: 0.1 };

/** What the job needs of a database client: Prisma's raw statements. */
export interface RawStatements {
  $queryRawUnsafe<T = unknown>(sql: string, ...values: unknown[]): Promise<T>;
  $executeRawUnsafe(sql: string, ...values: unknown[]): Promise<number>;
}

/** Analyzes the stale tables of the service's schema; answers the tables analyzed. */
export async function refreshStatistics(ctx: { prisma: RawStatements; log: Pick<JobContext['log'], 'info'> }): Promise<string[]> {
  // pending statistics of this backend are flushed at the end of the next statement
  // (PGlite has one backend and no idle flush); executed, not queried: Prisma cannot read the
  // function's void column, and the job failed on every run that way
  await ctx.prisma.$executeRawUnsafe('SELECT pg_stat_force_next_flush()');
  const stale = await ctx.prisma.$queryRawUnsafe<{ table: string }[]>(
    `SELECT relname AS "table" FROM pg_stat_user_tables
      WHERE schemaname = current_schema() AND relname NOT LIKE '\\_prisma%' ESCAPE '\\'
        AND n_mod_since_analyze > $1::int + $2::float8 * GREATEST(n_live_tup, 0)
      ORDER BY n_mod_since_analyze DESC`,
    ANALYZE_THRESHOLD.rows,
    ANALYZE_THRESHOLD.fraction,
  );
  for (const { table } of stale) {
    // the name comes from the catalog; quoted as an identifier all the same
    await ctx.prisma.$executeRawUnsafe(`ANALYZE "${table.replaceAll('"', '""')}"`);
  }
  if (stale.length) ctx.log.info({ tables: stale.map((s) => s.table) }, 'statistics refreshed');
  return stale.map((s) => s.table);
}
