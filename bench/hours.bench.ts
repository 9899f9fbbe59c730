import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import pg from 'pg';
import { compileList, type ListQuery } from '@bo/db';
import { hours } from '@bo/domain/hours/hours/hours.entity';
import { loadTls } from '@bo/runtime';
import { load as drive } from './support/load.js';
import { startBenchService } from './support/service.js';
import { record } from './support/summary.js';

/**
 * `pnpm bench hours` (issue 10, Benchmark): hour registrations across 200 employees in
 * 2 environments, loaded in bulk with generate_series, read through v2 over HTTPS:
 *   (a) the hours of one employee for one week: q[employee.id] and a start_date range, 10 connections
 *   (b) change tracking: q[updated_at][ge]=…&sort=-updated_at&limit=100
 *   (c) metadata=count over one project's hours
 * Each beside the same page read with plain pg in the same run (ratios), at a tenth of the
 * rows and at the full count (ratios of the full against the tenth). Target: (a) and (b)
 * within 1.5× of their figures at the tenth. The plans are printed. Nothing fails a build.
 *
 * BENCH_HOURS_ROWS (default 1,000,000) sets the full count; BENCH_DURATION (default 8) the
 * seconds per measurement. `BENCH_HOURS_ROWS=20000 BENCH_DURATION=1 pnpm bench hours` runs small.
 */
const FULL = Number(process.env.BENCH_HOURS_ROWS ?? 1_000_000);
const DURATION_S = Number(process.env.BENCH_DURATION ?? 8);
const CONNECTIONS = 10;
const ENVS = ['bench-a', 'bench-b'] as const;
const EMPLOYEES_PER_ENV = 100;
const PROJECTS_PER_ENV = 20;
/** the days the hours spread over, from 2020-01-01 */
const DAYS = 2000;

/** Employees, projects with one service each, on the environment's first hour type. */
async function loadReferences(db: pg.Client, env: string): Promise<void> {
  await db.query(
    `INSERT INTO employee (id, environment_id, name, updated_at)
     SELECT 'employee:' || $1 || ':' || i, $1, 'Employee ' || i, now() FROM generate_series(0, $2::int - 1) i`,
    [env, EMPLOYEES_PER_ENV],
  );
  await db.query(
    `INSERT INTO project (id, environment_id, name, updated_at)
     SELECT 'project:' || $1 || ':' || i, $1, 'Project ' || i, now() FROM generate_series(0, $2::int - 1) i`,
    [env, PROJECTS_PER_ENV],
  );
  await db.query(
    `INSERT INTO project_service (id, environment_id, project_id, name, invoice_method, updated_at)
     SELECT 'service:' || $1 || ':' || i, $1, 'project:' || $1 || ':' || i, 'Work ' || i, 'time_and_expenses', now()
       FROM generate_series(0, $2::int - 1) i`,
    [env, PROJECTS_PER_ENV],
  );
}

/** Hours i in [from, to) of one environment: employee i % 100, project i % 20, day (i / 100) % 2000, one second apart back in time. */
async function loadHours(db: pg.Client, env: string, from: number, to: number): Promise<void> {
  await db.query(
    `INSERT INTO hour_registration (id, environment_id, employee_id, project_id, project_service_id, hour_type_id, start_date,
                                    duration_minutes, billable, description, approval_status, tariff, created_at, updated_at)
     SELECT 'hours:' || $1 || ':' || i, $1,
            'employee:' || $1 || ':' || (i % $4::int), 'project:' || $1 || ':' || (i % $5::int), 'service:' || $1 || ':' || (i % $5::int),
            (SELECT h.id FROM hour_type h WHERE h.environment_id = $1 ORDER BY h.label LIMIT 1),
            date '2020-01-01' + ((i / $4::int) % $6::int), 60 + (i % 4) * 30, i % 5 <> 0, 'Work ' || i, 'open', 100,
            now() - make_interval(secs => i), now() - make_interval(secs => i)
       FROM generate_series($2::int, $3::int - 1) AS i`,
    [env, from, to, EMPLOYEES_PER_ENV, PROJECTS_PER_ENV, DAYS],
  );
}

interface Figure {
  rps: number;
  p99: number;
  p50: number;
  errors: number;
}

async function measure(url: string, headers: Record<string, string>): Promise<Figure> {
  // the load generator runs in a child process (support/load.ts)
  await drive({ url, headers, connections: CONNECTIONS, seconds: Math.max(1, Math.ceil(DURATION_S / 4)) }); // warm-up
  const r = await drive({ url, headers, connections: CONNECTIONS, seconds: DURATION_S });
  return { rps: r.requestsPerSecond, p99: r.p99, p50: r.p50, errors: r.errors + r.non2xx };
}

export default async function bench(): Promise<void> {
  process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';
  const tenth = Math.max(1000, Math.round(FULL / 10));
  const bench = await startBenchService();
  const { service } = bench;
  const db = new pg.Client({ connectionString: bench.url });
  await db.connect();
  const pool = new pg.Pool({ connectionString: bench.url, max: CONNECTIONS });
  const tls = await loadTls({ dataDir: bench.dataDir });
  let baseline: ReturnType<typeof createServer> | null = null;
  try {
    const envIds: Record<string, string> = {};
    let headers: Record<string, string> = {};
    for (const env of ENVS) {
      const created = await bench.environment(env);
      envIds[env] = created.id;
      if (env === 'bench-a') headers = { ...created.v2, host: created.host };
      await loadReferences(db, created.id);
    }
    const envA = envIds['bench-a'] as string;
    const employee = `employee:${envA}:7`;
    const projectId = `project:${envA}:3`;
    // a week in the middle of what the tenth covers
    const weekStart = new Date(Date.UTC(2020, 0, 6 + 7 * Math.floor(tenth / 2 / EMPLOYEES_PER_ENV / 2 / 7)));
    const weekEnd = new Date(weekStart.getTime() + 6 * 86_400_000);
    const day = (d: Date) => d.toISOString().slice(0, 10);
    const since = (rows: number) => {
      // the newest 1 in 20 of the environment's rows (one second apart)
      const d = new Date(Date.now() - (rows / ENVS.length / 20) * 1000);
      return d.toISOString().slice(0, 19).replace('T', ' ');
    };
    const scenarios = (rows: number) => ({
      '(a) employee week': `/api/v2/hours/hours?q[employee.id]=${encodeURIComponent(employee)}&q[start_date][ge]=${day(weekStart)}&q[start_date][le]=${day(weekEnd)}`,
      '(b) change tracking': `/api/v2/hours/hours?q[updated_at][ge]=${encodeURIComponent(since(rows))}&sort=-updated_at&limit=100`,
      '(c) project count': `/api/v2/hours/hours?q[project.id]=${encodeURIComponent(projectId)}&metadata=count&limit=1`,
    });

    // plain pg reading the same pages: hours with their employee, project, service and type
    const plainSelect = `SELECT h.*, e.name AS employee_name, p.name AS project_name, s.name AS service_name, t.label AS type_label
        FROM hour_registration h
        JOIN employee e ON e.id = h.employee_id JOIN project p ON p.id = h.project_id
        JOIN project_service s ON s.id = h.project_service_id JOIN hour_type t ON t.id = h.hour_type_id`;
    let sinceNow = since(FULL);
    const plain: Record<string, () => Promise<unknown>> = {
      '/a': () =>
        pool
          .query(
            `${plainSelect} WHERE h.environment_id = $1 AND h.employee_id = $2 AND h.start_date BETWEEN $3 AND $4
            ORDER BY h.start_date, h.id LIMIT 100`,
            [envA, employee, day(weekStart), day(weekEnd)],
          )
          .then((r) => r.rows),
      '/b': () =>
        pool
          .query(
            `${plainSelect} WHERE h.environment_id = $1 AND h.updated_at >= $2 ORDER BY h.updated_at DESC, h.id DESC LIMIT 100`,
            [envA, sinceNow],
          )
          .then((r) => r.rows),
      '/c': () =>
        Promise.all([
          pool.query(`SELECT count(*)::int AS count FROM hour_registration WHERE environment_id = $1 AND project_id = $2`, [
            envA,
            projectId,
          ]),
          pool.query(`${plainSelect} WHERE h.environment_id = $1 AND h.project_id = $2 ORDER BY h.start_date, h.id LIMIT 1`, [
            envA,
            projectId,
          ]),
        ]).then(([count, page]) => ({ count: count.rows[0], rows: page.rows })),
    };
    baseline = createServer({ cert: tls.cert, key: tls.key }, (req, res) => {
      const run = plain[req.url ?? ''];
      if (!run) {
        res.statusCode = 404;
        res.end();
        return;
      }
      run().then(
        (out) => {
          res.setHeader('content-type', 'application/json');
          res.end(JSON.stringify({ data: out, errors: null, debug: null }));
        },
        () => {
          res.statusCode = 500;
          res.end();
        },
      );
    });
    await new Promise<void>((resolve) => baseline?.listen(0, '127.0.0.1', resolve));
    const basePort = (baseline.address() as AddressInfo).port;
    const baseUrl = { '(a) employee week': '/a', '(b) change tracking': '/b', '(c) project count': '/c' };

    const results: Record<number, Record<string, { api: Figure; plain: Figure }>> = {};
    let loaded = 0;
    for (const rows of [tenth, FULL]) {
      const t0 = Date.now();
      const perEnv = rows / ENVS.length;
      for (const env of ENVS) await loadHours(db, envIds[env] as string, loaded / ENVS.length, perEnv);
      await db.query('VACUUM ANALYZE hour_registration');
      loaded = rows;
      sinceNow = since(rows);
      console.log(
        `loaded ${rows.toLocaleString('en')} hour registrations (${ENVS.length} environments) in ${Date.now() - t0} ms`,
      );
      results[rows] = {};
      for (const [label, url] of Object.entries(scenarios(rows))) {
        const api = await measure(`https://127.0.0.1:${service.port}${url}`, headers);
        const base = await measure(`https://127.0.0.1:${basePort}${baseUrl[label as keyof typeof baseUrl]}`, {});
        (results[rows] as Record<string, { api: Figure; plain: Figure }>)[label] = { api, plain: base };
        console.log(
          `${rows.toLocaleString('en').padStart(9)} rows  ${label.padEnd(20)} service ${api.rps.toFixed(0).padStart(6)} req/s p99 ${api.p99} ms (errors ${api.errors})   plain pg ${base.rps.toFixed(0).padStart(6)} req/s p99 ${base.p99} ms   ratio req/s ×${(api.rps / Math.max(base.rps, 1)).toFixed(2)} p99 ×${(api.p99 / Math.max(base.p99, 1)).toFixed(2)}`,
        );
      }
      console.log(
        `load average: ${loadavg()
          .map((n) => n.toFixed(2))
          .join(' ')}`,
      );
    }

    console.log(`\nratios, ${FULL.toLocaleString('en')} rows against the ${tenth.toLocaleString('en')}-row figures of this run`);
    for (const label of Object.keys(scenarios(0))) {
      const small = results[tenth]?.[label]?.api as Figure;
      const big = results[FULL]?.[label]?.api as Figure;
      const p99 = big.p99 / Math.max(small.p99, 1);
      const target = label.startsWith('(c)')
        ? ''
        : `  (target ≤ 1.5: ${p99 <= 1.5 && small.rps / Math.max(big.rps, 1) <= 1.5 ? 'met' : 'NOT met'})`;
      console.log(
        `  ${label.padEnd(20)} req/s ×${(big.rps / Math.max(small.rps, 1)).toFixed(2)}   p99 ×${p99.toFixed(2)}${target}`,
      );
      record({
        benchmark: 'hours',
        figure: `${label}: p99 at ${FULL.toLocaleString('en')} rows against ${tenth.toLocaleString('en')}`,
        value: `${big.rps.toFixed(0)} req/s, p99 ${big.p99.toFixed(0)} ms`,
        baseline: `${small.rps.toFixed(0)} req/s, p99 ${small.p99.toFixed(0)} ms`,
        ratio: p99,
        ...(label.startsWith('(c)') ? {} : { atMost: 1.5 }),
      });
    }

    // the statements of (a), (b) and (c) exactly as the service compiles them
    const compiled = (query: ListQuery) => compileList(hours.sqlModel, envA, query);
    const plans: [string, string, unknown[]][] = [];
    const a = compiled({
      where: {
        and: [
          { path: 'employee.id', op: 'eq', value: employee },
          { path: 'startDate', op: 'ge', value: day(weekStart) },
          { path: 'startDate', op: 'le', value: day(weekEnd) },
        ],
      },
      orderBy: [
        { path: 'startDate', dir: 'asc' },
        { path: 'id', dir: 'asc' },
      ],
      offset: 0,
      limit: 100,
      count: false,
    });
    plans.push(['(a) page', a.pageSql, a.pageParams]);
    const b = compiled({
      where: { path: 'updatedAt', op: 'ge', value: since(FULL) },
      orderBy: [{ path: 'updatedAt', dir: 'desc' }],
      offset: 0,
      limit: 100,
      count: false,
    });
    plans.push(['(b) page', b.pageSql, b.pageParams]);
    const c = compiled({
      where: { path: 'project.id', op: 'eq', value: projectId },
      orderBy: [],
      offset: 0,
      limit: 1,
      count: true,
    });
    plans.push(['(c) count', c.countSql, c.countParams]);
    for (const [label, sql, params] of plans) {
      const plan = await db.query(`EXPLAIN (ANALYZE, BUFFERS, FORMAT TEXT) ${sql}`, params);
      console.log(`\nplan of ${label} at ${FULL.toLocaleString('en')} rows:\n${sql}`);
      for (const row of plan.rows as { 'QUERY PLAN': string }[]) console.log(`  ${row['QUERY PLAN']}`);
    }
  } finally {
    baseline?.close();
    await pool.end();
    await db.end();
    await bench.stop();
  }
}
