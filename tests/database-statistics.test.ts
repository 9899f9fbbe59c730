import { ANALYZE_THRESHOLD, refreshStatistics } from '@bo/domain/database/refresh-statistics';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { post } from './support/crm.js';
import { type ApiClient, startTestService, type TestService } from './support/service.js';

/**
 * Issue 15, statistics: neither the embedded database (PGlite has no autovacuum) nor this
 * machine's PostgreSQL (autovacuum off) analyzes tables by itself. The worker's
 * `database.refresh-statistics` job (every minute) analyzes the tables changed past
 * PostgreSQL's own threshold, so that the list queries keep their index plans.
 */
let t: TestService;
let acme: ApiClient;
let client: pg.Client;

/** the service's own Prisma client, as the job gets it (a stand-in over pg hid that Prisma cannot read a void column) */
const raw = () => t.service.database.prisma;
const quiet = { info: () => {} };

async function stats(table: string) {
  await client.query('SELECT pg_stat_force_next_flush()');
  const rows = await client.query<{ mods: string; analyzed: Date | null }>(
    `SELECT n_mod_since_analyze::text AS mods, GREATEST(last_analyze, last_autoanalyze) AS analyzed
       FROM pg_stat_user_tables WHERE relname = $1`,
    [table],
  );
  return rows.rows[0];
}

beforeAll(async () => {
  t = await startTestService();
  acme = await t.environment('acme');
  client = new pg.Client({ connectionString: t.db.url });
  await client.connect();
});
afterAll(async () => {
  await client?.end();
  await t?.stop();
});

describe('statistics are kept fresh without autovacuum', () => {
  it('rows loaded through v2 make organization stale; the job analyzes it, and the list query plans with the real row count', async () => {
    for (let batch = 0; batch < 40; batch += 1) {
      await Promise.all(Array.from({ length: 25 }, (_, i) => post(acme, '/crm/organization', { name: `Org ${batch * 25 + i}` })));
    }
    // (the service's own backends report their changes within a second or so of going idle)
    await new Promise((r) => setTimeout(r, 1500));
    const before = await stats('organization');
    expect(Number(before?.mods)).toBeGreaterThan(ANALYZE_THRESHOLD.rows + ANALYZE_THRESHOLD.fraction * 1000);

    const analyzed = await refreshStatistics({ prisma: raw(), log: quiet });
    expect(analyzed).toContain('organization');
    const after = await stats('organization');
    expect(after?.mods).toBe('0');
    expect(after?.analyzed).not.toBeNull();

    // the list query of the environment's organizations: the planner now knows the rows it will find
    const env = (await client.query<{ id: string }>(`SELECT id FROM environment WHERE name = 'acme'`)).rows[0]?.id;
    const plan = await client.query<{ 'QUERY PLAN': unknown }>(
      `EXPLAIN (FORMAT JSON) SELECT t.id FROM organization t WHERE t.environment_id = $1 ORDER BY t.updated_at DESC, t.id DESC`,
      [env],
    );
    const scans: { 'Relation Name'?: string; 'Plan Rows'?: number }[] = [];
    const walk = (node: Record<string, unknown>) => {
      if (node['Relation Name']) scans.push(node);
      for (const child of (node.Plans as Record<string, unknown>[] | undefined) ?? []) walk(child);
    };
    walk((plan.rows[0]?.['QUERY PLAN'] as { Plan: Record<string, unknown> }[] | undefined)?.[0]?.Plan ?? {});
    const estimate = scans.find((n) => n['Relation Name'] === 'organization')?.['Plan Rows'] ?? 0;
    expect(estimate).toBeGreaterThan(900);
    expect(estimate).toBeLessThan(1100);

    // nothing changed since: nothing to analyze
    expect(await refreshStatistics({ prisma: raw(), log: quiet })).not.toContain('organization');
    // 1,000 creates over HTTPS: well within the default 30 s alone, not on a machine loaded by other work
  }, 120_000);
});
