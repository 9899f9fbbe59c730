import type { createCaller } from '@bo/domain';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Envelope, list } from './support/crm.js';
import { type ApiClient, callerOf, startTestService, type TestService } from './support/service.js';

/**
 * Leave balances page their keys before they sum (issue 15): a page must hold exactly what the
 * whole aggregate holds at that place, and each of its rows exactly the employee's own balance.
 * The data covers what makes keys and sums differ: two employees of one name, an employee with
 * nothing, contracts that end mid-year, overlap a year in two parts, have no end or start next
 * year, granted and taken leave in every status, and a type that affects no balance.
 */

let t: TestService;
let acme: ApiClient;
let caller: ReturnType<typeof createCaller>;
let env: string;
const year = new Date().getUTCFullYear();
const types: Record<'vacation' | 'timeForTime' | 'special', string> = { vacation: '', timeForTime: '', special: '' };
let employees: string[] = [];

type Row = Record<string, unknown>;

/** A fixed pseudo-random sequence (mulberry32), so that a failure can be replayed. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

async function load(): Promise<void> {
  const one = async (sql: string, params: unknown[] = []) => (await t.db.query<{ id: string }>(sql, params))[0]?.id as string;
  env = await one(`SELECT id FROM environment WHERE name = 'acme'`);
  const status = (key: string) => one('SELECT id FROM leave_status WHERE environment_id = $1 AND key = $2', [env, key]);
  const statuses = [null, await status('approved'), await status('requested'), await status('rejected')];
  const type = (label: string) => one('SELECT id FROM leave_type WHERE environment_id = $1 AND label = $2', [env, label]);
  types.vacation = await type('Vacation');
  types.timeForTime = await type('Time for time');
  types.special = await type('Special leave');

  const people: [string, string][] = [
    ['lb01', 'Ada Ash'],
    ['lb02', 'Sam Same'],
    ['lb03', 'Sam Same'],
    ['lb04', 'Zed Zero'],
    ['lb05', 'Olga Open'],
    ['lb06', 'Fay Future'],
    ['lb07', 'Rita Requested'],
    ['lb08', 'Tom Two'],
    ['lb09', 'bea lower'],
    ['lb10', 'Ben Busy'],
    ['lb11', 'Cas Casual'],
    ['lb12', 'Dee Dense'],
    ['lb13', 'Eli Early'],
    ['lb14', 'Ada Ash'],
  ];
  for (const [id, name] of people)
    await t.db.query(
      `INSERT INTO employee (id, environment_id, name, employment_status, updated_at) VALUES ($1, $2, $3, 'active', now())`,
      [`employee:${id}`, env, name],
    );
  const contract = (id: string, employee: string, start: string, end: string | null, percentage: number, daysOff: number) =>
    t.db.query(
      `INSERT INTO contract (id, environment_id, employee_id, start_date, end_date, parttime_percentage, days_off, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [
        `contract:${id}`,
        env,
        `employee:${employee}`,
        start,
        end,
        percentage,
        daysOff,
        `${year - 4}-0${(id.length % 9) + 1}-15T10:00:00Z`,
        `${year - 1}-0${(id.length % 9) + 1}-20T10:00:00Z`,
      ],
    );
  await contract('lb01', 'lb01', `${year - 3}-01-01`, `${year - 1}-06-30`, 80, 25);
  await contract('lb05', 'lb05', `${year - 2}-03-15`, null, 100, 27.5);
  await contract('lb06', 'lb06', `${year + 1}-04-01`, null, 90, 24);
  await contract('lb08a', 'lb08', `${year - 1}-01-01`, `${year - 1}-06-30`, 100, 20);
  await contract('lb08b', 'lb08', `${year - 1}-07-01`, null, 60, 30);
  await contract('lb10', 'lb10', `${year - 4}-02-01`, `${year + 1}-12-31`, 100, 25);
  await contract('lb12', 'lb12', `${year}-01-01`, `${year}-12-31`, 50, 22);

  const next = random(20261124);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
  const leaveTypes = [types.vacation, types.timeForTime, types.special];
  const busy = ['lb01', 'lb02', 'lb03', 'lb05', 'lb06', 'lb08', 'lb09', 'lb10', 'lb11', 'lb12', 'lb13', 'lb14'];
  let n = 0;
  const entry = (employee: string, leaveType: string, status: string | null, kind: string, y: number, hours: number) => {
    n += 1;
    const created = new Date(Date.UTC(y - 1, Math.floor(next() * 12), 1 + Math.floor(next() * 28), Math.floor(next() * 24)));
    const updated = new Date(created.getTime() + Math.floor(next() * 400) * 86_400_000);
    const start = kind === 'taken' ? `${y}-0${1 + Math.floor(next() * 9)}-1${Math.floor(next() * 9)}` : null;
    return t.db.query(
      `INSERT INTO leave (id, environment_id, employee_id, leave_type_id, leave_status_id, kind, start_date, end_date, year, hours,
                          created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $7, $8, $9, $10, $11)`,
      [`leave:lb${n}`, env, `employee:${employee}`, leaveType, status, kind, start, y, hours, created, updated],
    );
  };
  for (let i = 0; i < 160; i += 1) {
    const kind = next() < 0.3 ? 'granted' : 'taken';
    await entry(
      pick(busy),
      pick(leaveTypes),
      kind === 'granted' ? null : pick(statuses),
      kind,
      year - 3 + Math.floor(next() * 5),
      Math.round(next() * 160) / 4,
    );
  }
  // keys only a status or a type can make: none of these may show
  await entry('lb07', types.timeForTime, statuses[2] as string, 'taken', year, 8);
  await entry('lb07', types.vacation, statuses[3] as string, 'taken', year - 1, 8);
  await entry('lb07', types.special, null, 'taken', year, 8);
  await t.db.query('ANALYZE');
  employees = (
    await t.db.query<{ id: string }>('SELECT id FROM employee WHERE environment_id = $1 ORDER BY name, id', [env])
  ).map((e) => e.id);
}

beforeAll(async () => {
  t = await startTestService();
  acme = await t.environment('acme');
  caller = await callerOf(t, 'acme', acme);
  await load();
});
afterAll(() => t?.stop());

interface Filter {
  employeeIds?: string[];
  leaveTypeId?: string;
  year?: number;
  offset: number;
  limit: number;
}

/** Filters and pages over the loaded data, with ids and years that match nothing among them. */
const filters: fc.Arbitrary<Filter> = fc.record(
  {
    employeeIds: fc.subarray(
      [
        ...['lb01', 'lb02', 'lb03', 'lb04', 'lb06', 'lb07', 'lb08', 'lb10', 'lb14'].map((e) => `employee:${e}`),
        'employee:nobody',
      ],
      {
        minLength: 1,
      },
    ),
    leaveTypeId: fc
      .constantFrom(
        () => types.vacation,
        () => types.timeForTime,
        () => types.special,
        () => 'leavetype:none',
      )
      .map((f) => f()),
    year: fc.integer({ min: year - 5, max: year + 2 }),
    offset: fc.oneof(fc.integer({ min: 0, max: 12 }), fc.integer({ min: 0, max: 140 })),
    limit: fc.oneof(fc.integer({ min: 1, max: 15 }), fc.integer({ min: 1, max: 100 })),
  },
  { requiredKeys: ['offset', 'limit'] },
);

function v2Query(f: Partial<Filter>): string {
  const q = new URLSearchParams();
  if (f.employeeIds) q.set('q[employee_id]', f.employeeIds.join(','));
  if (f.leaveTypeId) q.set('q[leavetype.id]', f.leaveTypeId);
  if (f.year !== undefined) q.set('q[year]', String(f.year));
  if (f.offset !== undefined) q.set('offset', String(f.offset));
  if (f.limit !== undefined) q.set('limit', String(f.limit));
  return `/hrm/leavebalance?${q.toString()}`;
}

/**
 * The statement balances were read with before they paged their keys (issue 11): every balance
 * aggregated, then sorted and cut. Kept here as the oracle of what a page must hold.
 */
async function wholeAggregate(f: Filter): Promise<{ rows: Row[]; total: number }> {
  const params: unknown[] = [env, year];
  const p = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  const onEntries: string[] = [];
  const onContracts: string[] = [];
  if (f.employeeIds) {
    const x = p(f.employeeIds);
    onEntries.push(`l.employee_id = ANY(${x}::text[])`);
    onContracts.push(`c.employee_id = ANY(${x}::text[])`);
  }
  if (f.leaveTypeId) {
    const x = p(f.leaveTypeId);
    onEntries.push(`l.leave_type_id = ${x}`);
    onContracts.push(`lt.id = ${x}`);
  }
  if (f.year !== undefined) {
    const x = p(f.year);
    onEntries.push(`l.year = ${x}::int`);
    onContracts.push(`y.year = ${x}::int`);
    onContracts.push(
      `c.start_date <= make_date(${x}::int, 12, 31) AND COALESCE(c.end_date, 'infinity'::date) >= make_date(${x}::int, 1, 1)`,
    );
  }
  const and = (list: string[]) => list.map((c) => ` AND ${c}`).join('');
  const rows = await t.db.query(
    `
WITH entries AS (
  SELECT l.employee_id, l.leave_type_id, l.year,
         COALESCE(sum(l.hours) FILTER (WHERE l.kind = 'granted'), 0) AS granted,
         COALESCE(sum(l.hours) FILTER (WHERE l.kind = 'taken'), 0) AS taken,
         min(l.created_at) AS first_change, max(l.updated_at) AS last_change
    FROM leave l
    LEFT JOIN leave_status s ON s.id = l.leave_status_id AND s.environment_id = $1
   WHERE l.environment_id = $1 AND (l.leave_status_id IS NULL OR s.key = 'approved')${and(onEntries)}
   GROUP BY l.employee_id, l.leave_type_id, l.year
), contracted AS (
  SELECT c.employee_id, lt.id AS leave_type_id, y.year,
         sum(c.days_off * 8 * c.parttime_percentage / 100
             * ((LEAST(COALESCE(c.end_date, make_date(y.year, 12, 31)), make_date(y.year, 12, 31))
                 - GREATEST(c.start_date, make_date(y.year, 1, 1)) + 1)::numeric
                / (make_date(y.year, 12, 31) - make_date(y.year, 1, 1) + 1))) AS granted,
         min(c.created_at) AS first_change, max(c.updated_at) AS last_change
    FROM contract c
    JOIN leave_type lt ON lt.environment_id = $1 AND lt.contract_grants
   CROSS JOIN LATERAL generate_series(extract(year FROM c.start_date)::int,
         COALESCE(extract(year FROM c.end_date)::int, GREATEST($2::int, extract(year FROM c.start_date)::int))) AS y(year)
   WHERE c.environment_id = $1${and(onContracts)}
   GROUP BY c.employee_id, lt.id, y.year
), combined AS (
  SELECT employee_id, leave_type_id, year, sum(granted) AS granted, sum(taken) AS taken,
         min(first_change) AS first_change, max(last_change) AS last_change
    FROM (SELECT employee_id, leave_type_id, year, granted, taken, first_change, last_change FROM entries
          UNION ALL
          SELECT employee_id, leave_type_id, year, granted, 0, first_change, last_change FROM contracted) u
   GROUP BY employee_id, leave_type_id, year
)
SELECT b.employee_id AS "employeeId", e.name AS "employeeName", e.person_id AS "personId",
       lt.id AS "leaveTypeId", lt.label, lt.blocked, lt.color, lt.affects_balance AS "affectsBalance",
       b.year, round(b.granted, 2)::float8 AS granted, round(b.taken, 2)::float8 AS taken,
       round(b.granted - b.taken, 2)::float8 AS balance,
       b.first_change AS "firstChange", b.last_change AS "lastChange"
  FROM combined b
  JOIN employee e ON e.id = b.employee_id AND e.environment_id = $1
  JOIN leave_type lt ON lt.id = b.leave_type_id AND lt.environment_id = $1 AND lt.affects_balance
 ORDER BY e.name, e.id, lt.label, lt.id, b.year`,
    params,
  );
  return {
    total: rows.length,
    rows: rows.slice(f.offset, f.offset + f.limit).map((r) => ({
      employee: { id: r.employeeId, personId: r.personId, name: r.employeeName },
      leaveType: { id: r.leaveTypeId, label: r.label, blocked: r.blocked, color: r.color, affectsBalance: r.affectsBalance },
      year: r.year,
      granted: r.granted,
      taken: r.taken,
      balance: r.balance,
      firstChange: r.firstChange,
      lastChange: r.lastChange,
    })),
  };
}

describe('hrm/leavebalance pages', () => {
  it('the data makes balances of every kind (the properties below are not vacuous)', async () => {
    const all = await wholeAggregate({ offset: 0, limit: 1000 });
    expect(all.total).toBeGreaterThan(50);
    const label = (r: Row) => (r.leaveType as Row).label;
    expect(new Set(all.rows.map(label))).toEqual(new Set(['Vacation', 'Time for time']));
    expect(all.rows.some((r) => (r.balance as number) < 0)).toBe(true);
    expect(all.rows.map((r) => (r.employee as Row).id)).not.toContain('employee:lb04');
    expect(all.rows.map((r) => (r.employee as Row).id)).not.toContain('employee:lb07');
    // an open contract starting next year grants for that year only
    expect(
      all.rows.filter((r) => (r.employee as Row).id === 'employee:lb06' && label(r) === 'Vacation').map((r) => r.year),
    ).toContain(year + 1);
  });

  it('a page of balances equals each employee’s balance, in the order of employee name, leave type and year', async () => {
    const perEmployee = new Map<string, Row[]>();
    const ofEmployee = async (id: string, f: Filter): Promise<Row[]> => {
      const key = JSON.stringify([id, f.leaveTypeId, f.year]);
      let rows = perEmployee.get(key);
      if (!rows) {
        rows = await list<Row>(acme, v2Query({ employeeIds: [id], leaveTypeId: f.leaveTypeId, year: f.year }));
        perEmployee.set(key, rows);
      }
      return rows;
    };
    await fc.assert(
      fc.asyncProperty(filters, async (f) => {
        const page = await list<Row>(acme, v2Query(f));
        const wanted = f.employeeIds ? employees.filter((e) => f.employeeIds?.includes(e)) : employees;
        const each: Row[] = [];
        for (const e of wanted) each.push(...(await ofEmployee(e, f)));
        expect(page).toEqual(each.slice(f.offset, f.offset + f.limit));
      }),
      { numRuns: 60, seed: 1511 },
    );
  });

  it('a page of balances and its count equal the same slice and size of the whole aggregate', async () => {
    await fc.assert(
      fc.asyncProperty(filters, async (f) => {
        const whole = await wholeAggregate(f);
        const page = await caller.hrm.leave.balances(f);
        expect(page.items).toEqual(whole.rows);
        expect(page.count).toBe(whole.total);
      }),
      { numRuns: 80, seed: 2411 },
    );
  });

  it('a count the caller does not ask for is not made, and the page stays the same', async () => {
    const f = { offset: 3, limit: 7 };
    const counted = await caller.hrm.leave.balances(f);
    const uncounted = await caller.hrm.leave.balances({ ...f, count: false });
    expect(uncounted.items).toEqual(counted.items);
    expect(counted.count).toBe((await wholeAggregate(f)).total);
    expect(uncounted.count).toBeNull();
  });

  it('hrm/leavebalance still refuses what it does not know, and pages past the end answer an empty page', async () => {
    expect((await acme.v2('GET', '/hrm/leavebalance?count=true')).status).toBe(400);
    const past = await acme.v2('GET', '/hrm/leavebalance?offset=100000');
    expect(past.status).toBe(200);
    expect((past.body as Envelope<Row[]>).data).toEqual([]);
  });
});

describe('hrm/leavebalance cost', () => {
  let bulk: string;
  beforeAll(async () => {
    await t.environment('bulk');
    const one = async (sql: string) => (await t.db.query<{ id: string }>(sql))[0]?.id as string;
    bulk = await one(`SELECT id FROM environment WHERE name = 'bulk'`);
    const vacation = await one(`SELECT id FROM leave_type WHERE environment_id = '${bulk}' AND contract_grants`);
    const approved = await one(`SELECT id FROM leave_status WHERE environment_id = '${bulk}' AND key = 'approved'`);
    // 600 employees over 4 years: a contract each, and per year a grant and six taken entries
    const emp = `'employee:bulk' || lpad(i::text, 4, '0')`;
    await t.db.query(
      `INSERT INTO employee (id, environment_id, name, employment_status, updated_at)
       SELECT ${emp}, $1, 'Bulk ' || lpad(i::text, 4, '0'), 'active', now() FROM generate_series(1, 600) i`,
      [bulk],
    );
    await t.db.query(
      `INSERT INTO contract (id, environment_id, employee_id, start_date, parttime_percentage, days_off, updated_at)
       SELECT 'contract:bulk' || i, $1, ${emp}, make_date($2::int - 3, 1, 1), 100, 25, now() FROM generate_series(1, 600) i`,
      [bulk, year],
    );
    await t.db.query(
      `INSERT INTO leave (id, environment_id, employee_id, leave_type_id, leave_status_id, kind, year, hours, updated_at)
       SELECT 'leave:bulk' || i || '_' || y || '_' || k, $1, ${emp}, $3, CASE WHEN k % 2 = 0 THEN $4 END,
              CASE WHEN k = 0 THEN 'granted' ELSE 'taken' END, y, 8, now()
         FROM generate_series(1, 600) i, generate_series($2::int - 3, $2::int) y, generate_series(0, 6) k`,
      [bulk, year, vacation, approved],
    );
    await t.db.query('ANALYZE employee, contract, leave');
  });

  /** Rows the statement read from one table, over all its scans and loops. */
  async function rowsRead(sql: string, params: unknown[], table: string): Promise<number> {
    type Plan = { 'Relation Name'?: string; 'Actual Rows': number; 'Actual Loops': number; Plans?: Plan[] };
    const [row] = await t.db.query<{ 'QUERY PLAN': [{ Plan: Plan }] }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`, params);
    const walk = (p: Plan): number =>
      (p['Relation Name'] === table ? p['Actual Rows'] * p['Actual Loops'] : 0) +
      (p.Plans ?? []).reduce((n, c) => n + walk(c), 0);
    return walk((row as { 'QUERY PLAN': [{ Plan: Plan }] })['QUERY PLAN'][0].Plan);
  }

  it('a page of balances reads the leave of the page’s employees, not of the whole collection', async () => {
    const { leaveBalanceQuery } = await import('@bo/domain/hrm/leave/leave-balance');
    const total = 600 * 4 * 7;
    for (const f of [
      { offset: 0, limit: 100 },
      { offset: 400, limit: 100 },
      { offset: 40, limit: 10, year: year - 1 },
    ]) {
      const q = leaveBalanceQuery(f, year);
      const read = await rowsRead(q.sql, [bulk, ...q.params], 'leave');
      // an employee has 4 keys (1 in one year) and 28 leave rows: the page reaches the employees up
      // to offset + limit, whose rows its keys come from, and sums at most 7 rows per key
      const reached = Math.ceil((f.offset + f.limit) / ('year' in f ? 1 : 4)) + 3;
      expect(read, JSON.stringify(f)).toBeLessThanOrEqual(reached * 28 + f.limit * 7);
      expect(read).toBeLessThan(total / 3);
      expect(read).toBeGreaterThan(0);
    }
  });
});
