import { loadavg } from 'node:os';
import { leaveBalanceQuery } from '@bo/domain/hrm/leave/leave-balance';
import { startBaselineServer } from './support/baseline.js';
import { load, row } from './support/load.js';
import { startBenchService } from './support/service.js';
import { record } from './support/summary.js';

/**
 * `pnpm bench hrm` (issue 11, Benchmark): leave balances for HRM_BENCH_EMPLOYEES employees
 * (default 2,000) over HRM_BENCH_YEARS years (default 5) of timetables, contracts and leave:
 * per employee and year one timetable, one grant and ten taken entries (a third approved, a
 * third requested, a third booked directly), and one contract over the whole period.
 *  1. the balance of one employee: GET /api/v2/hrm/leavebalance?q[employee_id]=…
 *  2. the list of all balances, 100 per page: GET /api/v2/hrm/leavebalance?limit=100&offset=…
 * each beside a baseline in the same run: plain pg answering the same question with a plain
 * SQL aggregate (GROUP BY over the leave rows and the contracts, no names, no paging rules).
 * The service's balance is one SQL statement per page, whatever the number of employees.
 * Since a page pages its keys before it sums (issue 15), the whole aggregate is no longer the
 * limit of a page: the page is also measured against the service's own statement run through
 * plain pg + node:https (what the HTTP stack costs), and its ratio is taken against that.
 * Sizes: HRM_BENCH_EMPLOYEES, HRM_BENCH_YEARS, HRM_BENCH_SECONDS (per measurement, default 8).
 */

const EMPLOYEES = Number(process.env.HRM_BENCH_EMPLOYEES ?? 2000);
const YEARS = Number(process.env.HRM_BENCH_YEARS ?? 5);
const SECONDS = Number(process.env.HRM_BENCH_SECONDS ?? 8);

const DAY = { startTime: 9, endTime: 17, hours: 8 };
const FREE = { hours: 0 };
const WEEK = { day1: DAY, day2: DAY, day3: DAY, day4: DAY, day5: DAY, day6: FREE, day7: FREE };

const employeeId = (i: number) => `employee:bench${String(i).padStart(6, '0')}`;

/** The bulk load: a handful of set-based statements, not one request per row. */
export async function bulkLoad(pool: import('pg').Pool, env: string, lastYear: number): Promise<void> {
  const firstYear = lastYear - YEARS + 1;
  const lookup = async (sql: string) => (await pool.query<{ id: string }>(sql, [env])).rows[0]?.id as string;
  const active = await lookup(`SELECT id FROM employee_status WHERE environment_id = $1 AND key = 'active'`);
  const approved = await lookup(`SELECT id FROM leave_status WHERE environment_id = $1 AND key = 'approved'`);
  const requested = await lookup(`SELECT id FROM leave_status WHERE environment_id = $1 AND key = 'requested'`);
  const vacation = await lookup(`SELECT id FROM leave_type WHERE environment_id = $1 AND contract_grants`);
  const timeForTime = await lookup(`SELECT id FROM leave_type WHERE environment_id = $1 AND label = 'Time for time'`);
  const emp = `'employee:bench' || lpad(i::text, 6, '0')`;
  await pool.query(
    `INSERT INTO employee (id, environment_id, name, employment_status, status_id, updated_at)
     SELECT ${emp}, $1, 'Employee ' || lpad(i::text, 6, '0'), 'active', $3, now() FROM generate_series(1, $2::int) i`,
    [env, EMPLOYEES, active],
  );
  await pool.query(
    `INSERT INTO timetable (id, environment_id, employee_id, start_date, end_date, has_odd_weeks, even_week, odd_week,
                            even_week_hours, odd_week_hours, updated_at)
     SELECT 'timetable:bench' || i || '_' || y, $1, ${emp}, make_date(y, 1, 1), make_date(y, 12, 31), false, $4::jsonb, $4::jsonb, 40, 40, now()
       FROM generate_series(1, $2::int) i, generate_series($3::int, $3::int + $5::int - 1) y`,
    [env, EMPLOYEES, firstYear, JSON.stringify(WEEK), YEARS],
  );
  await pool.query(
    `INSERT INTO contract (id, environment_id, employee_id, start_date, parttime_percentage, days_off, updated_at)
     SELECT 'contract:bench' || i, $1, ${emp}, make_date($3::int, 1, 1), 80 + (i % 3) * 10, 25, now() FROM generate_series(1, $2::int) i`,
    [env, EMPLOYEES, firstYear],
  );
  await pool.query(
    `INSERT INTO leave (id, environment_id, employee_id, leave_type_id, kind, year, hours, updated_at)
     SELECT 'leave:benchg' || i || '_' || y, $1, ${emp}, $4, 'granted', y, 40, now()
       FROM generate_series(1, $2::int) i, generate_series($3::int, $3::int + $5::int - 1) y`,
    [env, EMPLOYEES, firstYear, timeForTime, YEARS],
  );
  await pool.query(
    `INSERT INTO leave (id, environment_id, employee_id, leave_type_id, leave_status_id, kind, start_date, end_date, year, hours, updated_at)
     SELECT 'leave:bencht' || i || '_' || y || '_' || k, $1, ${emp}, CASE WHEN k = 10 THEN $7 ELSE $4 END,
            CASE k % 3 WHEN 0 THEN $5 WHEN 1 THEN $6 ELSE NULL END, 'taken',
            make_date(y, 2, 1) + k * 14, make_date(y, 2, 1) + k * 14, y, 8, now()
       FROM generate_series(1, $2::int) i, generate_series($3::int, $3::int + $8::int - 1) y, generate_series(1, 10) k`,
    [env, EMPLOYEES, firstYear, vacation, approved, requested, timeForTime, YEARS],
  );
  await pool.query('ANALYZE');
}

/** The plain SQL aggregate the service is compared with: the same sums, GROUP BY only. */
const PLAIN = (where: string, page: string) => `
  SELECT employee_id, leave_type_id, year, sum(granted) - sum(taken) AS balance FROM (
    SELECT l.employee_id, l.leave_type_id, l.year,
           CASE WHEN l.kind = 'granted' THEN l.hours ELSE 0 END AS granted, CASE WHEN l.kind = 'taken' THEN l.hours ELSE 0 END AS taken
      FROM leave l LEFT JOIN leave_status s ON s.id = l.leave_status_id
     WHERE l.environment_id = $1 AND (s.key IS NULL OR s.key = 'approved')${where.replaceAll('X.', 'l.')}
    UNION ALL
    SELECT c.employee_id, lt.id, y, c.days_off * 8 * c.parttime_percentage / 100, 0
      FROM contract c JOIN leave_type lt ON lt.environment_id = $1 AND lt.contract_grants,
           generate_series(extract(year FROM c.start_date)::int, $2::int) y
     WHERE c.environment_id = $1${where.replaceAll('X.', 'c.')}
  ) u GROUP BY employee_id, leave_type_id, year ORDER BY employee_id, leave_type_id, year ${page}`;

export default async function run(): Promise<void> {
  console.log(
    `load average before: ${loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}`,
  );
  const bench = await startBenchService();
  const env = await bench.environment('bench');
  const lastYear = new Date().getUTCFullYear();
  const started = Date.now();
  await bulkLoad(bench.pool, env.id, lastYear);
  const counts = await bench.pool.query<{ leave: string; timetables: string }>(
    'SELECT (SELECT count(*) FROM leave) AS leave, (SELECT count(*) FROM timetable) AS timetables',
  );
  console.log(
    `bulk load: ${EMPLOYEES} employees, ${YEARS} years, ${counts.rows[0]?.timetables} timetables, ${counts.rows[0]?.leave} leave entries in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );

  const one = employeeId(Math.ceil(EMPLOYEES / 2));
  const page = leaveBalanceQuery({ offset: 1000, limit: 100, count: false }, lastYear);
  const baseline = await startBaselineServer((req) =>
    req.url?.startsWith('/one')
      ? bench.pool.query(PLAIN(' AND X.employee_id = $3', ''), [env.id, lastYear, one])
      : req.url?.startsWith('/same')
        ? bench.pool.query(page.sql, [env.id, ...page.params])
        : bench.pool.query(PLAIN('', 'LIMIT 100 OFFSET 1000'), [env.id, lastYear]),
  );
  const basePort = baseline.port;
  const api = `https://127.0.0.1:${bench.service.port}/api/v2/hrm/leavebalance`;
  const headers = { ...env.v2, host: env.host };
  const cases = [
    { label: 'one employee', base: `https://127.0.0.1:${basePort}/one`, url: `${api}?q[employee_id]=${one}` },
    {
      label: 'all balances, page of 100 (offset 1000)',
      base: `https://127.0.0.1:${basePort}/page`,
      same: `https://127.0.0.1:${basePort}/same`,
      url: `${api}?limit=100&offset=1000`,
    },
  ];
  try {
    for (const c of cases) {
      await load({ url: c.base, seconds: 1 });
      if (c.same) await load({ url: c.same, seconds: 1 });
      await load({ url: c.url, headers, seconds: 1 });
      const b = await load({ url: c.base, seconds: SECONDS });
      const same = c.same ? await load({ url: c.same, seconds: SECONDS }) : null;
      const s = await load({ url: c.url, headers, seconds: SECONDS });
      console.log(`${c.label}: 10 connections, ${SECONDS} s each`);
      console.log(row('  baseline (plain SQL aggregate over pg)', b));
      if (same) console.log(row("  baseline (the service's statement over pg)", same));
      console.log(row('  GET /api/v2/hrm/leavebalance', s));
      console.log(`  ratio (service / aggregate): throughput ${(s.requestsPerSecond / b.requestsPerSecond).toFixed(2)}`);
      if (same)
        console.log(
          `  ratio (service / same statement): throughput ${(s.requestsPerSecond / same.requestsPerSecond).toFixed(2)}`,
        );
      const limit = same ?? b;
      record({
        benchmark: 'hrm',
        figure: c.label,
        value: `${s.requestsPerSecond.toFixed(0)} req/s, p99 ${s.p99.toFixed(0)} ms`,
        baseline: same
          ? `${same.requestsPerSecond.toFixed(0)} req/s (its statement over pg; the whole aggregate: ${b.requestsPerSecond.toFixed(0)} req/s)`
          : `${b.requestsPerSecond.toFixed(0)} req/s (plain SQL aggregate)`,
        ratio: s.requestsPerSecond / limit.requestsPerSecond,
      });
    }
  } finally {
    baseline.close();
    await bench.stop();
    console.log(
      `load average after: ${loadavg()
        .map((n) => n.toFixed(2))
        .join(' ')}`,
    );
  }
}
