import pg from 'pg';
import { declaredEntities } from '@bo/domain';
import { pruneEvents } from '@bo/domain/changes/prune-events';
import { dispatchAll } from '@bo/domain/placement/move-environment';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, callerOf, startTestService, type TestService } from './support/service.js';

/**
 * Issue 29, section 2: a change feed that includes deletions, read from the event outbox in
 * commit order, through v3 `change.list`, v2 `GET /changes` and tRPC alike. The service runs
 * without its worker: the feed must not depend on one to show a change.
 */

interface FeedItem {
  cursor: string;
  entityType: string;
  entityId: string;
  change: 'created' | 'updated' | 'deleted';
  occurredAt: string;
  data: Record<string, unknown>;
}
interface FeedPage {
  items: FeedItem[];
  nextCursor: string | null;
  hasMore: boolean;
}

let t: TestService;
let acme: ApiClient;

beforeAll(async () => {
  t = await startTestService();
  acme = await t.environment('acme');
});
afterAll(async () => {
  await t?.stop();
});

async function feed(client: ApiClient, query = ''): Promise<FeedPage> {
  const res = await client.v3('GET', `/change.list${query ? `?${query}` : ''}`);
  expect(res.status, res.text).toBe(200);
  return res.body as FeedPage;
}

/** every change after `after`, following nextCursor, `perPage` at a time */
async function drain(client: ApiClient, after: string | null, perPage = 100, extra = ''): Promise<FeedItem[]> {
  const out: FeedItem[] = [];
  let cursor = after;
  for (;;) {
    const page = await feed(
      client,
      [cursor ? `after=${cursor}` : '', `itemsPerPage=${perPage}`, extra].filter(Boolean).join('&'),
    );
    out.push(...page.items);
    cursor = page.nextCursor;
    if (!page.hasMore) return out;
  }
}

async function createOrganization(client: ApiClient, name: string): Promise<string> {
  const res = await client.v2('POST', '/crm/organization', { name });
  expect(res.status, res.text).toBe(200);
  return (res.body as { data: { id: string } }).data.id;
}

async function newestCursor(client: ApiClient): Promise<string | null> {
  return (await drain(client, null)).at(-1)?.cursor ?? null;
}

describe('the change feed', () => {
  it('shows a create, an update and a delete in commit order, deletions as {id, type}, as soon as each write has answered, through v3, v2 and tRPC alike', async () => {
    const start = await newestCursor(acme);
    const id = await createOrganization(acme, 'Feed One BV');
    const afterCreate = await drain(acme, start);
    expect(afterCreate.map((c) => [c.entityType, c.entityId, c.change])).toEqual([['organization', id, 'created']]);
    expect(afterCreate[0]?.data).toMatchObject({ id, name: 'Feed One BV' });

    // the update through tRPC, the create and the delete through v2, the reads through v3, v2 and tRPC
    const caller = await callerOf(t, 'acme', acme);
    await caller.crm.organization.update({ id, data: { name: 'Feed One Renamed BV' } });
    expect((await acme.v2('DELETE', `/crm/organization/${encodeURIComponent(id)}`)).status).toBe(200);

    const v3 = await drain(acme, start);
    expect(v3.map((c) => c.change)).toEqual(['created', 'updated', 'deleted']);
    expect(v3[1]?.data).toMatchObject({ id, name: 'Feed One Renamed BV' });
    expect(v3[2]?.data).toEqual({ id, type: 'organization' });
    const cursors = v3.map((c) => BigInt(c.cursor));
    expect(cursors).toEqual([...cursors].sort((a, b) => (a < b ? -1 : 1)));

    const v2 = await acme.v2('GET', `/changes?q[cursor][gt]=${start ?? '0'}`);
    expect(v2.status, v2.text).toBe(200);
    const v2Items = (v2.body as { data: Record<string, unknown>[] }).data;
    expect(v2Items.map((c) => [c.cursor, c.entity_type, c.entity_id, c.change])).toEqual(
      v3.map((c) => [c.cursor, 'organization', id, c.change]),
    );
    expect(v2Items[0]?.occurred_at).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);

    const trpc = await caller.changes.change.list({ ...(start ? { after: start } : {}) });
    expect(trpc.items.map((c) => c.cursor)).toEqual(v3.map((c) => c.cursor));
  });

  it('a change whose write has answered is in the feed even while a slow writer holds the outbox for longer than its barrier waits (the catch-up tries again after a back-off)', async () => {
    const start = await newestCursor(acme);
    const writer = new pg.Client({ connectionString: t.db.url });
    await writer.connect();
    try {
      // a writer of the outbox in the middle of its transaction: the barrier gives up on it after 50 ms
      await writer.query('BEGIN');
      await writer.query('LOCK TABLE event IN ROW EXCLUSIVE MODE');
      const id = await createOrganization(acme, 'Feed Behind Slow Writer BV');
      const read = drain(acme, start);
      // it ends 400 ms later, without an event: three barriers back to back had given up by then
      await new Promise((resolve) => setTimeout(resolve, 400));
      await writer.query('ROLLBACK');
      expect((await read).map((c) => [c.entityId, c.change])).toEqual([[id, 'created']]);
    } finally {
      await writer.end();
    }
  });

  it('pages that follow nextCursor while writers commit in parallel see every change exactly once, in commit order per entity', async () => {
    const start = await newestCursor(acme);
    const ids = await Promise.all([1, 2, 3, 4].map((n) => createOrganization(acme, `Race ${n} BV`)));
    const seen: FeedItem[] = [];
    let cursor = start;
    let writing = true;
    const reader = (async () => {
      while (writing) {
        const page = await feed(acme, [cursor ? `after=${cursor}` : '', 'itemsPerPage=7'].filter(Boolean).join('&'));
        seen.push(...page.items);
        cursor = page.nextCursor;
      }
    })();
    // four writers, each renaming its organization 15 times, through v2 and tRPC in turn
    const caller = await callerOf(t, 'acme', acme);
    try {
      await Promise.all(
        ids.map(async (id, w) => {
          for (let i = 0; i < 15; i++) {
            if (i % 2) await caller.crm.organization.update({ id, data: { name: `Race ${w} round ${i}` } });
            else {
              const res = await acme.v2('PUT', `/crm/organization/${encodeURIComponent(id)}`, { name: `Race ${w} round ${i}` });
              expect(res.status, res.text).toBe(200);
            }
          }
        }),
      );
    } finally {
      writing = false;
      await reader;
    }
    seen.push(...(await drain(acme, cursor, 7)));

    const stored = await t.db.query<{ seq: string; entity_id: string; type: string }>(
      `SELECT e.seq::text AS seq, e.entity_id, e.type FROM event e JOIN environment v ON v.id = e.environment_id
        WHERE v.name = 'acme' AND e.seq > $1::bigint ORDER BY e.seq`,
      [start ?? '0'],
    );
    // exactly once: the cursors seen are the stored events, none twice, none missing
    expect(seen.map((c) => c.cursor)).toEqual(stored.map((r) => r.seq));
    expect(new Set(seen.map((c) => c.cursor)).size).toBe(seen.length);
    expect(seen).toHaveLength(4 + 4 * 15);
    // in commit order per entity: each organization's renames arrive in the order they were made
    for (const [w, id] of ids.entries()) {
      const names = seen.filter((c) => c.entityId === id && c.change === 'updated').map((c) => c.data.name);
      expect(names).toEqual(Array.from({ length: 15 }, (_, i) => `Race ${w} round ${i}`));
    }
  });

  it('filters by entity type, by kind of change and by the instant it occurred, in the database', async () => {
    const start = await newestCursor(acme);
    const id = await createOrganization(acme, 'Filtered BV');
    const person = await acme.v2('POST', '/crm/person', { first_name: 'Fil', family_name: 'Tered' });
    expect(person.status, person.text).toBe(200);
    expect((await acme.v2('DELETE', `/crm/organization/${encodeURIComponent(id)}`)).status).toBe(200);

    const people = await drain(acme, start, 100, 'entityType=person');
    expect(people.map((c) => [c.entityType, c.change])).toEqual([['person', 'created']]);
    const deletions = await drain(acme, start, 100, 'change=deleted');
    expect(deletions.map((c) => [c.entityType, c.entityId])).toEqual([['organization', id]]);
    const both = await drain(acme, start, 100, 'entityType=person&entityType=organization');
    expect(both).toHaveLength(3);
    const future = await drain(
      acme,
      start,
      100,
      `occurredFrom=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`,
    );
    expect(future).toEqual([]);
    const v2Deleted = await acme.v2(
      'GET',
      `/changes?q[cursor][gt]=${start ?? '0'}&q[change]=deleted&q[entity_type]=organization`,
    );
    expect((v2Deleted.body as { data: { entity_id: string }[] }).data.map((c) => c.entity_id)).toEqual([id]);
  });

  it('bad input gets the door’s problem details (400 malformed, 422 out of range) naming the parameter, v2 its 400 envelope', async () => {
    const cases: [string, number, string][] = [
      ['entityType=spaceship', 422, 'entityTypes'],
      ['after=abc', 422, 'after'],
      ['colour=red', 400, 'colour'],
      ['itemsPerPage=1000', 422, 'limit'],
      ['itemsPerPage=ten', 400, 'limit'],
      ['change=renamed', 422, 'change'],
      ['occurredFrom=yesterday', 400, 'occurredFrom'],
    ];
    for (const [query, status, name] of cases) {
      const res = await acme.v3('GET', `/change.list?${query}`);
      expect([query, res.status]).toEqual([query, status]);
      expect(res.text).toContain(name);
    }
    expect((await acme.v2('GET', '/changes?q[cursor][gt]=abc')).status).toBe(400);
    expect((await acme.v2('GET', '/changes?offset=10')).status).toBe(400);
    expect((await acme.v2('GET', '/changes?q[occurred_at][ge]=soon')).status).toBe(400);
  });
});

describe('rights in the feed', () => {
  it('a token without the HRM right sees no employee changes, and asking for them is 403', async () => {
    const start = await newestCursor(acme);
    const employee = await acme.v2('POST', '/hrm/employee', { name: 'Hidden Employee' });
    expect(employee.status, employee.text).toBe(200);
    await createOrganization(acme, 'Visible BV');
    const crmOnly = await t.user('acme', 'feed-crm-only@acme.test', { crm: 'read' });
    const seen = await drain(crmOnly, start);
    expect(seen.map((c) => c.entityType)).toEqual(['organization']);
    expect((await crmOnly.v3('GET', '/change.list?entityType=employee')).status).toBe(403);
    const all = await drain(acme, start);
    expect(all.map((c) => c.entityType)).toContain('employee');
  });

  it('a relation into a module the token may not read shows as {id, name} in the feed, as in reads', async () => {
    const start = await newestCursor(acme);
    const orgId = await createOrganization(acme, 'Customer Of Project BV');
    const project = await acme.v2('POST', '/projects/project', { name: 'Masked Project', organization_id: orgId });
    expect(project.status, project.text).toBe(200);
    const projectsOnly = await t.user('acme', 'feed-projects-only@acme.test', { projects: 'read' });
    const seen = await drain(projectsOnly, start);
    const created = seen.find((c) => c.entityType === 'project');
    expect(created?.data.organization, JSON.stringify(seen)).toBeTruthy();
    const organization = created?.data.organization as Record<string, unknown>;
    expect(Object.keys(organization).sort()).toEqual(['id', 'name']);
    expect(seen.some((c) => c.entityType === 'organization')).toBe(false);
  });
});

describe('retention', () => {
  it('events older than the retention are pruned; a cursor older than what was pruned answers 410 with what to do, in v3 and v2; no cursor starts at the oldest change kept', async () => {
    const other = await t.environment('retained');
    const first = await createOrganization(other, 'Old One BV');
    const second = await createOrganization(other, 'Old Two BV');
    const third = await createOrganization(other, 'Recent BV');
    const items = await drain(other, null);
    expect(items.map((c) => c.entityId)).toEqual([first, second, third]);
    // the first two happened 40 days ago
    await t.db.query(`UPDATE event SET occurred_at = now() - interval '40 days' WHERE entity_id = ANY($1::text[])`, [
      [first, second],
    ]);
    const pruned = await pruneEvents(t.service.database.prisma, 30);
    expect(pruned).toBeGreaterThanOrEqual(2);

    const stale = await other.v3('GET', `/change.list?after=${items[0]?.cursor}`);
    expect(stale.status).toBe(410);
    expect((stale.body as { detail: string }).detail).toMatch(/retention/);
    expect((await other.v2('GET', `/changes?q[cursor][gt]=${items[0]?.cursor}`)).status).toBe(410);
    // a cursor at or past what was pruned still reads on
    expect((await drain(other, items[1]?.cursor ?? null)).map((c) => c.entityId)).toEqual([third]);
    expect((await drain(other, null)).map((c) => c.entityId)).toEqual([third]);
  });
});

describe('the feed covers every change', () => {
  it('every entity type the outbox has recorded is a declared entity type, so no recorded change is left out of the feed', async () => {
    const types = await t.db.query<{ entity_type: string }>('SELECT DISTINCT entity_type FROM event');
    const declared = new Set(declaredEntities().map((e) => e.type));
    expect(types.length).toBeGreaterThan(2);
    expect(types.map((r) => r.entity_type).filter((x) => !declared.has(x))).toEqual([]);
  });
});

describe('the outbox dispatched in full before an environment move copies its deliveries', () => {
  it('a barrier that gave up to a long writer of the outbox is tried again after a back-off until the writer ends, not back to back (which queued every other writer of the outbox behind it and gave the move up)', async () => {
    await createOrganization(acme, 'Move Behind Long Writer BV');
    const [env] = await t.db.query<{ id: string }>(`SELECT id FROM environment WHERE name = 'acme'`);
    const behind = async () =>
      (
        await t.db.query<{ behind: boolean }>(
          `SELECT (SELECT max(seq) FROM event WHERE environment_id = $1)
                  > coalesce((SELECT last_seq FROM webhook_dispatch_cursor WHERE id = 1), 0) AS behind`,
          [env?.id],
        )
      )[0]?.behind;
    expect(await behind()).toBe(true);
    // a writer of another environment (the moved one's are frozen) holds the outbox for 3 s
    const writer = new pg.Client({ connectionString: t.db.url });
    await writer.connect();
    try {
      await writer.query('BEGIN');
      await writer.query('LOCK TABLE event IN ROW EXCLUSIVE MODE');
      const outcome = dispatchAll(t.service.database.prisma, env?.id ?? '').then(
        () => 'dispatched',
        (err: unknown) => String(err),
      );
      // how often a barrier waits in the lock queue of the outbox (where any other writer queues behind it)
      let samples = 0;
      let queued = 0;
      for (const until = Date.now() + 3_000; Date.now() < until; samples++) {
        const [w] = await t.db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_locks WHERE relation = 'event'::regclass AND NOT granted`,
        );
        if ((w?.n ?? 0) > 0) queued++;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      expect(await behind()).toBe(true);
      await writer.query('ROLLBACK');
      expect(await outcome).toBe('dispatched');
      expect(await behind()).toBe(false);
      // back to back it was queued more than half the time; on the back-off (50 ms, doubled to 1 s) about a tenth
      expect(samples).toBeGreaterThan(50);
      expect(queued / samples).toBeLessThan(0.3);
    } finally {
      await writer.end();
    }
  }, 30_000);
});
