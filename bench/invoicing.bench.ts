import { performance } from 'node:perf_hooks';
import { runInvoiceDraftRequest, systemClock } from '@bo/domain';
import { startBenchService } from './support/service.js';
import { record } from './support/summary.js';

/**
 * `pnpm bench invoicing` (issue 13, Benchmark): the draft job drafting one invoice per
 * project for BENCH_INVOICING_PROJECTS projects (default 500) with BENCH_INVOICING_ITEMS
 * approved, billable hours (default 200,000) and a tenth as many booked costs, besides a
 * fixed price, 4 installments and a monthly subscription (18 cycles) per project. Reports
 * invoices/s, hours/s and items/s and the worker's memory (rss and heap, sampled), beside a
 * plain SQL aggregate of the same items in the same run. Hours are claimed and summed in
 * SQL per project, never loaded all at once.
 */
const PROJECTS = Number(process.env.BENCH_INVOICING_PROJECTS ?? 500);
const ITEMS = Number(process.env.BENCH_INVOICING_ITEMS ?? 200_000);
const COSTS = Math.ceil(ITEMS / 10);
const INVOICE_DATE = '2026-06-30';

export default async function run(): Promise<void> {
  const bench = await startBenchService();
  const env = await bench.environment('bench');
  const q = (sql: string, params: unknown[] = []) => bench.pool.query(sql, [env.id, ...params]);
  try {
    await q(
      `INSERT INTO project (id, environment_id, name, billable, phase, updated_at)
       SELECT 'project:bench' || g, $1, 'Bench project ' || g, true, 'execution', now() FROM generate_series(1, $2::int) g`,
      [PROJECTS],
    );
    await q(
      `INSERT INTO project_service (id, environment_id, project_id, name, invoice_method, price, amount, invoice_in_installments,
                                    start_date, subscription_cycle, updated_at)
       SELECT 'projectservice:bench' || g || ':' || k, $1, 'project:bench' || g, 'Service ' || k,
              (ARRAY['fixed_price', 'fixed_price', 'subscription', 'time_and_expenses'])[k],
              (ARRAY[1000, 2000, 49.95, NULL])[k], 1, k = 2, CASE WHEN k = 3 THEN DATE '2025-01-01' END,
              CASE WHEN k = 3 THEN 'month' END, now()
         FROM generate_series(1, $2::int) g CROSS JOIN generate_series(1, 4) k`,
      [PROJECTS],
    );
    await q(
      `INSERT INTO project_service_installment (id, environment_id, project_service_id, name, percentage, position, expiration_date)
       SELECT 'installment:bench' || g || ':' || k, $1, 'projectservice:bench' || g || ':2', 'Term ' || k, 25, k,
              DATE '2026-01-01' + (k * 60)
         FROM generate_series(1, $2::int) g CROSS JOIN generate_series(1, 4) k`,
      [PROJECTS],
    );
    await q(
      `INSERT INTO purchase (id, environment_id, project_id, supplier, invoice_amount, invoice_date, updated_at)
       SELECT 'purchase:bench' || i, $1, 'project:bench' || (1 + i % $2::int), 'Supplier', round((1 + (i % 997) / 10.0)::numeric, 2),
              DATE '2026-01-01' + (i % 150), now()
         FROM generate_series(1, $3::int) i`,
      [PROJECTS, COSTS],
    );
    await q(
      `INSERT INTO employee (id, environment_id, name, updated_at)
       SELECT 'employee:bench' || e, $1, 'Bench employee ' || e, now() FROM generate_series(1, 20) e`,
    );
    // approved, billable hours on each project's time-and-expenses service, 15 to 480 minutes, three tariffs
    await q(
      `INSERT INTO hour_registration (id, environment_id, employee_id, project_id, project_service_id, hour_type_id, start_date,
                                      duration_minutes, billable, approval_status, tariff, updated_at)
       SELECT 'hours:bench' || i, $1, 'employee:bench' || (1 + i % 20), 'project:bench' || (1 + i % $2::int),
              'projectservice:bench' || (1 + i % $2::int) || ':4',
              (SELECT id FROM hour_type WHERE environment_id = $1 ORDER BY label LIMIT 1),
              DATE '2026-01-01' + (i % 150), 15 * (1 + i % 32), true, 'approved', (ARRAY[85, 95.5, 120])[1 + i % 3], now()
         FROM generate_series(1, $3::int) i`,
      [PROJECTS, ITEMS],
    );
    await bench.pool.query(
      'ANALYZE project; ANALYZE project_service; ANALYZE project_service_installment; ANALYZE purchase; ANALYZE hour_registration',
    );

    // baseline: one plain SQL aggregate of the same billable items per project
    const baseStart = performance.now();
    const baseline = await q(
      `SELECT p.id,
              (SELECT COALESCE(sum(round(h.duration_minutes / 60.0 * h.tariff, 2)), 0) FROM hour_registration h
                WHERE h.environment_id = $1 AND h.project_id = p.id AND h.invoice_id IS NULL AND h.approval_status = 'approved'
                  AND h.billable AND h.start_date <= $2::date) AS hours,
              (SELECT COALESCE(sum(pu.invoice_amount), 0) FROM purchase pu WHERE pu.environment_id = $1 AND pu.project_id = p.id
                 AND pu.invoice_date <= $2::date) AS costs,
              (SELECT COALESCE(sum(s.price * s.amount), 0) FROM project_service s WHERE s.environment_id = $1 AND s.project_id = p.id
                 AND s.invoice_method = 'fixed_price' AND NOT s.invoice_in_installments) AS fixed
         FROM project p WHERE p.environment_id = $1`,
      [INVOICE_DATE],
    );
    const baseMs = performance.now() - baseStart;

    const requestId = 'invoicedraftrequest:bench';
    await q(
      `INSERT INTO invoice_draft_request (id, environment_id, status, invoice_date, updated_at) VALUES ($2, $1, 'queued', $3, now())`,
      [requestId, INVOICE_DATE],
    );
    await q(
      `INSERT INTO invoice_draft_request_project (id, environment_id, request_id, project_id, position, updated_at)
       SELECT 'invoicedraftrequestproject:bench' || g, $1, $2, 'project:bench' || g, g, now() FROM generate_series(1, $3::int) g`,
      [requestId, PROJECTS],
    );
    const silent = { info: () => {}, warn: () => {}, error: (o: object, m?: string) => console.error(m, o) };
    const memory = { rss: process.memoryUsage().rss, heap: process.memoryUsage().heapUsed };
    const before = { ...memory };
    const sampler = setInterval(() => {
      const m = process.memoryUsage();
      memory.rss = Math.max(memory.rss, m.rss);
      memory.heap = Math.max(memory.heap, m.heapUsed);
    }, 50);
    const start = performance.now();
    await runInvoiceDraftRequest(
      { prisma: bench.service.database.prisma, clock: systemClock, log: silent },
      { environmentId: env.id, requestId },
    );
    const ms = performance.now() - start;
    clearInterval(sampler);
    const drafted = await q(
      `SELECT count(DISTINCT i.id)::int AS invoices, count(l.id)::int AS lines, sum(l.amount)::text AS total
         FROM invoice i JOIN invoice_line l ON l.invoice_id = i.id WHERE i.environment_id = $1`,
    );
    const items = ITEMS + COSTS + PROJECTS * (1 + 4 + 18);
    const invoicedHours = (
      await q('SELECT count(*)::int AS n FROM hour_registration WHERE environment_id = $1 AND invoice_id IS NOT NULL')
    ).rows[0] as { n: number };
    const d = drafted.rows[0] as { invoices: number; lines: number; total: string };
    const mb = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MiB`;
    console.log(
      `load average: ${(await import('node:os'))
        .loadavg()
        .map((x) => x.toFixed(2))
        .join(' ')}`,
    );
    console.log(
      `${PROJECTS} projects, ${ITEMS} approved hours, ${COSTS} booked costs (+ fixed prices, installments, subscription cycles), invoice date ${INVOICE_DATE}`,
    );
    console.log(
      `baseline (one SQL aggregate of the hours, costs and fixed prices): ${baseMs.toFixed(0)} ms for ${baseline.rowCount} projects`,
    );
    console.log(
      `draft job: ${d.invoices} invoices, ${d.lines} lines in ${ms.toFixed(0)} ms: ${((d.invoices * 1000) / ms).toFixed(1)} invoices/s, ` +
        `${((invoicedHours.n * 1000) / ms).toFixed(0)} hours/s (${invoicedHours.n} hours invoiced), ` +
        `${((items * 1000) / ms).toFixed(0)} items/s (candidate items ${items})`,
    );
    console.log(`ratio (draft job / baseline aggregate): ${(ms / baseMs).toFixed(1)}× the time`);
    record({
      benchmark: 'invoicing',
      figure: `drafting ${PROJECTS} projects, ${ITEMS} hours (time against one SQL aggregate of the same items)`,
      value: `${((d.invoices * 1000) / ms).toFixed(1)} invoices/s, ${((invoicedHours.n * 1000) / ms).toFixed(0)} hours/s, heap peak ${mb(memory.heap)}`,
      baseline: `${baseMs.toFixed(0)} ms`,
      ratio: ms / baseMs,
    });
    console.log(
      `worker memory: rss ${mb(before.rss)} → peak ${mb(memory.rss)}, heap ${mb(before.heap)} → peak ${mb(memory.heap)}`,
    );
  } finally {
    await bench.stop();
  }
}
