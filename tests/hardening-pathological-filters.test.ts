import { request } from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, startTestService, type TestService } from './support/service.js';

/**
 * One environment's pathological reads must not take the service down: list queries
 * are bounded (depth, conditions, sort keys, select paths: a 400 naming the limit),
 * a statement runs at most STATEMENT_TIMEOUT_MS (then 503 "took too long"), a client
 * that goes away has its statement cancelled, and one environment holds at most its
 * share of the pool, so another environment's plain reads keep answering.
 */
const TIMEOUT_MS = 500;
const ROWS = 200_000;

let t: TestService;
let slow: ApiClient;
let plain: ApiClient;
let slowEnvironmentId: string;

beforeAll(async () => {
  t = await startTestService({
    limits: { statementTimeoutMs: TIMEOUT_MS, connectionsPerEnvironment: 2 },
  });
  slow = await t.environment('slow');
  plain = await t.environment('plain');
  for (let i = 0; i < 12; i += 1) {
    const res = await plain.v2('POST', '/crm/organization', { name: `Plain ${i}` });
    expect(res.status).toBe(200);
  }
  const [env] = await t.db.query<{ id: string }>(`SELECT id FROM environment WHERE name = 'slow'`);
  slowEnvironmentId = env?.id ?? '';
  // many rows in the slow environment, each with a visiting address: sorting on five
  // nested to-one paths runs five sub-queries per row, seconds of work within every limit
  const org = `'organization:' || md5($1 || ':' || i)`;
  await t.db.query(
    `INSERT INTO organization (id, environment_id, name, relation_number, is_active, created_at, updated_at)
     SELECT ${org}, $1, 'Org ' || i, 'R-' || i, true, now(), now() FROM generate_series(1, $2::int) AS i`,
    [slowEnvironmentId, ROWS],
  );
  await t.db.query(
    `INSERT INTO organization_address (id, environment_id, organization_id, kind, line_1, locality, country_code)
     SELECT 'address:' || md5($1 || ':a:' || i), $1, ${org}, 'visiting', 'Street ' || i, 'Town ' || (i % 97), 'NL'
       FROM generate_series(1, $2::int) AS i`,
    [slowEnvironmentId, ROWS],
  );
  await t.db.query('ANALYZE organization; ANALYZE organization_address');
}, 180_000);

afterAll(async () => {
  await t?.stop();
});

/** within every limit, and slow: five nested sort keys over every row, and the count */
const PATHOLOGICAL =
  '/crm/organization?sort=visiting_address.locality,-postal_address.locality,relation_type.label,industry.name,organizationsize.name&metadata=count&q[name]=*r*';

function errorsOf(body: unknown): string[] {
  return (body as { errors: string[] }).errors;
}

function p99(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.99) - 1)] ?? 0;
}

/** The longest-running statement of the service on this database right now (ms). */
async function longestStatementMs(): Promise<number> {
  const [row] = await t.db.query<{ ms: number | null }>(
    `SELECT max(extract(epoch FROM clock_timestamp() - query_start) * 1000)::float8 AS ms
       FROM pg_stat_activity
      WHERE datname = current_database() AND state = 'active' AND pid <> pg_backend_pid()
        AND query LIKE '%organization%' AND query NOT LIKE '%pg_stat_activity%'`,
  );
  return row?.ms ?? 0;
}

describe('pathological filters: a list query is bounded in size', () => {
  const deep = ['linked_persons_contacts', 'organization', 'linked_persons_contacts', 'organization', 'linked_persons_contacts'];
  const cases: [string, string, RegExp][] = [
    ['path depth', `/crm/organization?q[${[...deep, 'organization', 'name'].join('.')}]=x`, /limit: path depth/],
    [
      'path depth (80 hops, as reported)',
      `/crm/organization?q[${Array.from({ length: 40 }, () => 'linked_persons_contacts.organization').join('.')}.name]=x`,
      /limit: path depth/,
    ],
    ['conditions', `/crm/organization?${Array.from({ length: 51 }, (_, i) => `q[name]=n${i}`).join('&')}`, /limit: conditions/],
    [
      'conditions (or-groups)',
      `/crm/organization?${Array.from({ length: 60 }, (_, i) => `q[or][relation_number]=r${i}`).join('&')}`,
      /limit: conditions/,
    ],
    ['sort keys', '/crm/organization?sort=name,-name,email,phone,relation_number,id', /limit: sort keys/],
    ['sort path depth', `/crm/organization?sort=${[...deep, 'organization', 'name'].join('.')}`, /limit: path depth/],
    [
      'select paths',
      `/crm/organization?select=${Array.from({ length: 51 }, (_, i) => `f${i}`).join(',')}`,
      /limit: select paths/,
    ],
    ['select path depth', `/crm/organization?select=${deep.join('.')}.organization.name`, /limit: path depth/],
  ];
  it.each(cases)('%s over the limit answers 400 in the envelope, naming the limit', async (_name, path, message) => {
    const res = await plain.v2('GET', path);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ data: null, debug: null });
    expect(errorsOf(res.body).join(' ')).toMatch(message);
  });

  it('one-by-one by id with a deep select is refused the same way', async () => {
    const list = (await plain.v2('GET', '/crm/organization?limit=1')).body as { data: { id: string }[] };
    const id = list.data[0]?.id;
    const res = await plain.v2('GET', `/crm/organization/${id}?select=${deep.join('.')}.organization.name`);
    expect(res.status).toBe(400);
    expect(errorsOf(res.body).join(' ')).toMatch(/limit: path depth/);
  });

  it('at the limits the query still runs (depth 5, 50 conditions, 5 sort keys, 50 select paths)', async () => {
    const atDepth = await plain.v2('GET', `/crm/organization?q[${deep.slice(0, 4).join('.')}.name]=x`);
    expect(atDepth.status).toBe(200);
    const conditions = await plain.v2(
      'GET',
      `/crm/organization?${Array.from({ length: 50 }, (_, i) => `q[name]=n${i}`).join('&')}`,
    );
    expect(conditions.status).toBe(200);
    const sorts = await plain.v2('GET', '/crm/organization?sort=name,-email,phone,relation_number,id');
    expect(sorts.status).toBe(200);
    const selects = await plain.v2('GET', `/crm/organization?select=${Array.from({ length: 50 }, (_, i) => `f${i}`).join(',')}`);
    expect(selects.status).toBe(200);
  });
});

describe('pathological filters: a statement timeout, cancellation and a fair share of connections', () => {
  it('a slow read within the limits answers 503 "took too long" in each contract shape, after about the timeout', async () => {
    const started = performance.now();
    const res = await slow.v2('GET', PATHOLOGICAL);
    const took = performance.now() - started;
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ data: null, debug: null });
    expect(errorsOf(res.body).join(' ')).toMatch(/took too long/);
    expect(took).toBeLessThan(TIMEOUT_MS * 4);
    // nothing internal in the answer: no SQL, no PostgreSQL wording
    expect(res.text).not.toMatch(/canceling statement|SELECT|organization_address/);
  });

  it('a client that goes away has its statement cancelled at once', async () => {
    // a second service on the same database with a long timeout: only the cancellation can end the statement early
    const patient = await startTestService({ db: t.db, limits: { statementTimeoutMs: 20_000 } });
    try {
      const req = request({
        host: '127.0.0.1',
        port: patient.service.port,
        path: `/api/v2${PATHOLOGICAL}`,
        headers: {
          host: 'slow.localhost',
          'authentication-key': slow.token?.key ?? '',
          'authentication-secret': slow.token?.secret ?? '',
        },
        rejectUnauthorized: false,
        agent: false,
      });
      req.on('error', () => {});
      req.end();
      // the statement starts …
      let running = 0;
      for (let i = 0; i < 80 && running < 100; i += 1) {
        await new Promise((r) => setTimeout(r, 25));
        running = await longestStatementMs();
      }
      expect(running).toBeGreaterThan(0);
      // … the client leaves; within a moment (not 20 s) nothing of it runs any more
      req.destroy();
      const left = performance.now();
      while ((await longestStatementMs()) > 0 && performance.now() - left < 5_000) {
        await new Promise((r) => setTimeout(r, 25));
      }
      const gone = performance.now() - left;
      expect(gone).toBeLessThan(2_000);
      console.log(`[pathological filters] statement ended ${gone.toFixed(0)} ms after its client left (timeout 20 s)`);
    } finally {
      await patient.stopService();
    }
  });

  it("12 pathological reads from one environment: another environment's plain reads stay correct, no statement outlives the timeout", async () => {
    const read = async () => {
      const started = performance.now();
      const res = await plain.v2('GET', '/crm/organization?limit=10&sort=name&metadata=count');
      const ms = performance.now() - started;
      expect(res.status, res.text).toBe(200);
      const body = res.body as { data: { name: string }[]; metadata: { count: number } };
      expect(body.metadata.count).toBe(12);
      expect(body.data.map((o) => o.name)).toEqual([...Array.from({ length: 12 }, (_, i) => `Plain ${i}`)].sort().slice(0, 10));
      return ms;
    };
    // idle figure
    const idle: number[] = [];
    for (let i = 0; i < 40; i += 1) idle.push(await read());

    // 12 pathological readers for ~4 s, each firing again as soon as it is answered
    const until = performance.now() + 4_000;
    const statuses = new Map<number, number>();
    const messages = new Set<string>();
    const pathological = Array.from({ length: 12 }, async () => {
      while (performance.now() < until) {
        const res = await slow.v2('GET', PATHOLOGICAL);
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        if (res.status === 503) for (const m of errorsOf(res.body)) messages.add(m);
      }
    });
    let longest = 0;
    const watch = (async () => {
      while (performance.now() < until + 500) {
        longest = Math.max(longest, await longestStatementMs());
        await new Promise((r) => setTimeout(r, 50));
      }
    })();
    const busy: number[] = [];
    await new Promise((r) => setTimeout(r, 300));
    while (performance.now() < until) busy.push(await read());
    await Promise.all([...pathological, watch]);

    // every pathological read is answered, and only with the 503 of the timeout or of a full share
    expect([...statuses.keys()]).toEqual([503]);
    for (const m of messages) expect(m).toMatch(/took too long|too many requests of this environment/);
    // no request statement ran (much) longer than the timeout
    expect(longest).toBeLessThan(TIMEOUT_MS + 1_000);
    expect(busy.length).toBeGreaterThan(5);
    console.log(
      `[pathological filters] plain reads of another environment: idle p99 ${p99(idle).toFixed(1)} ms (n=${idle.length}); ` +
        `with 12 pathological readers p99 ${p99(busy).toFixed(1)} ms (n=${busy.length}), ratio ${(p99(busy) / p99(idle)).toFixed(2)}; ` +
        `pathological answers ${JSON.stringify(Object.fromEntries(statuses))}; longest statement ${longest.toFixed(0)} ms (timeout ${TIMEOUT_MS} ms)`,
    );
  }, 60_000);
});
