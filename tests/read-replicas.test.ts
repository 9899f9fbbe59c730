// Read replicas (issue 30, section 1): query reads go to a streaming replica, and every read still sees
// every earlier write. A primary and a replica are started here (initdb, pg_basebackup -R); the
// service runs on them with DATABASE_REPLICA_URLS. Which server answered is counted on the servers
// themselves (pg_stat_statements), and by the router.
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyMigrations, createPrismaClient, type ReplicaStatus, replicaRouterOf, tenantSql } from '@bo/db';
import type { TestDatabase } from './support/database.js';
import { send } from './support/http.js';
import { type PgCluster, type PgClusters, startClusters, waitUntil } from './support/pg-cluster.js';
import { type ApiClient, startTestService, type TestService } from './support/service.js';

const MAX_LAG_MS = 1_000;

let clusters: PgClusters;
let replica: PgCluster;
let t: TestService;
let acme: ApiClient;
let other: ApiClient;

type Envelope<T = Record<string, unknown>> = { data: T };
type Page = { items: { id: string; name: string }[] };

beforeAll(async () => {
  clusters = await startClusters();
  const { primary } = clusters;
  await primary.query('CREATE DATABASE bo');
  await primary.query('CREATE EXTENSION pg_stat_statements', [], 'bo');
  await applyMigrations(primary.url('bo'));
  replica = await clusters.addReplica();
  const db: TestDatabase = {
    name: 'bo',
    url: primary.url('bo'),
    query: (sql, params) => primary.query(sql, params, 'bo'),
    drop: async () => {},
  };
  t = await startTestService({ db, replicaUrls: [replica.url('bo')], replicaMaxLagMs: MAX_LAG_MS });
  acme = await t.environment('acme');
  other = await t.environment('other');
}, 180_000);

afterAll(async () => {
  await t?.stopService();
  if (t) rmSync(t.dataDir, { recursive: true, force: true });
  await clusters?.destroy();
});

function status(): ReplicaStatus {
  const router = replicaRouterOf(t.service.database.prisma);
  const first = router?.status()[0];
  if (!first) throw new Error('the service has no replica router');
  return first;
}

/** statements the service ran on the replica's database (not the router's own checks and polls) */
async function statementsOnReplica(): Promise<number> {
  const rows = await replica.query<{ n: number }>(
    `SELECT coalesce(sum(calls), 0)::int AS n FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid
      WHERE d.datname = 'bo' AND s.query NOT LIKE '%pg_last_wal_replay_lsn%' AND s.query NOT LIKE '%pg_stat_statements%'`,
    [],
    'bo',
  );
  return rows[0]?.n ?? 0;
}

/** the replica has replayed everything the primary has written, and the router knows it is well */
async function caughtUp(): Promise<void> {
  await waitUntil(
    async () => {
      const [p] = await clusters.primary.query<{ lsn: string }>('SELECT pg_current_wal_insert_lsn()::text AS lsn');
      const [r] = await replica.query<{ ok: boolean }>('SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS ok', [p?.lsn]);
      const s = status();
      return r?.ok === true && s.up && s.lagMs <= MAX_LAG_MS;
    },
    // generous: under a loaded machine (the whole suite at once) the replica replays late
    30_000,
    'the replica to catch up',
  );
}

async function create(client: ApiClient, name: string): Promise<string> {
  const res = await client.v2('POST', '/crm/organization', { name });
  expect(res.status, res.text).toBe(200);
  return (res.body as Envelope<{ id: string }>).data.id;
}

async function listNames(client: ApiClient, name: string): Promise<string[]> {
  const res = await client.v3('GET', `/organization.list?name=${encodeURIComponent(name)}`);
  expect(res.status, res.text).toBe(200);
  return (res.body as Page).items.map((o) => o.name);
}

describe('read replicas', () => {
  it('query reads go to a replica that has replayed past the primary: the list statements run on the replica', async () => {
    await create(acme, 'Routed 1');
    await caughtUp();
    const before = await statementsOnReplica();
    const readsBefore = status().reads;
    for (let i = 0; i < 10; i += 1) {
      expect(await listNames(acme, 'Routed 1')).toEqual(['Routed 1']);
      const v2 = await acme.v2('GET', '/crm/organization?q[name]=Routed%201');
      expect(v2.status).toBe(200);
    }
    // 20 list requests, each a page statement at least: most of them answered by the replica
    expect(status().reads - readsBefore).toBeGreaterThanOrEqual(10);
    expect((await statementsOnReplica()) - before).toBeGreaterThanOrEqual(10);
    // and /trpc's queries, the same procedures through the third door
    const trpcReads = status().reads;
    const input = encodeURIComponent(JSON.stringify({ limit: 5 }));
    for (let i = 0; i < 5; i += 1) {
      const res = await send(t.service.port, 'GET', `/trpc/crm.organization.list?input=${input}`, {
        host: 'acme.localhost',
        headers: { authorization: `Bearer ${acme.token?.key}:${acme.token?.secret}` },
      });
      expect(res.status, res.text).toBe(200);
    }
    expect(status().reads).toBeGreaterThan(trpcReads);
  });

  it('replay paused: a create through v2 is in the v3 list at once (the replica is asked, found behind, and the primary answers)', async () => {
    await caughtUp();
    await replica.query('SELECT pg_wal_replay_pause()');
    try {
      await waitUntil(
        async () => (await replica.query<{ s: string }>('SELECT pg_get_wal_replay_pause_state() AS s'))[0]?.s === 'paused',
        5_000,
        'replay paused',
      );
      const behindBefore = status().behind;
      const id = await create(acme, 'Paused Replay');
      expect(await listNames(acme, 'Paused Replay')).toEqual(['Paused Replay']);
      // and read by id through both versions
      expect((await acme.v3('GET', `/organization.get/${encodeURIComponent(id)}`)).status).toBe(200);
      expect((await acme.v2('GET', `/crm/organization/${encodeURIComponent(id)}`)).status).toBe(200);
      // the replica was picked (its lag was within the limit), and its check refused it: a router that
      // skipped the check would have answered from the paused replica, without the row
      expect(status().behind).toBeGreaterThan(behindBefore);
    } finally {
      await replica.query('SELECT pg_wal_replay_resume()');
    }
  });

  it(`a replica lagging more than REPLICA_MAX_LAG_MS (${MAX_LAG_MS} ms) is not used, and is used again once caught up`, async () => {
    await caughtUp();
    await create(acme, 'Lag Reader');
    await caughtUp();
    await replica.query('SELECT pg_wal_replay_pause()');
    try {
      // writes in another environment: the replica falls behind the primary
      await create(other, 'Lag Writer 1');
      await waitUntil(() => status().lagMs > MAX_LAG_MS, 5_000, 'the router to measure the lag');
      await create(other, 'Lag Writer 2');
      const before = { statements: await statementsOnReplica(), ...status() };
      for (let i = 0; i < 5; i += 1) expect(await listNames(acme, 'Lag Reader')).toEqual(['Lag Reader']);
      const after = status();
      // not even asked: no read, no check found behind, no statement on the replica
      expect(after.reads).toBe(before.reads);
      expect(after.behind).toBe(before.behind);
      expect(await statementsOnReplica()).toBe(before.statements);
    } finally {
      await replica.query('SELECT pg_wal_replay_resume()');
    }
    await caughtUp();
    const reads = status().reads;
    for (let i = 0; i < 5; i += 1) expect(await listNames(acme, 'Lag Reader')).toEqual(['Lag Reader']);
    expect(status().reads).toBeGreaterThan(reads);
  });

  it('the replica stopped under load: no 5xx, reads move to the primary within a second, and back after it returns', async () => {
    await caughtUp();
    const statuses: number[] = [];
    let stop = false;
    let created = 0;
    const worker = async (n: number) => {
      while (!stop) {
        if (n === 0) {
          const res = await acme.v2('POST', '/crm/organization', { name: `Load ${created++}` });
          statuses.push(res.status);
        } else {
          const res = await acme.v3('GET', '/organization.list?itemsPerPage=5');
          statuses.push(res.status);
        }
      }
    };
    const load = Promise.all([0, 1, 2, 3].map(worker));
    try {
      await waitUntil(() => status().reads > 0 && statuses.length > 20, 10_000, 'load on the replica');
      await replica.stop();
      const stoppedAt = Date.now();
      await waitUntil(() => !status().up, 1_000, 'the router to mark the stopped replica down');
      const movedIn = Date.now() - stoppedAt;
      const answeredBefore = statuses.length;
      await waitUntil(() => statuses.length > answeredBefore + 20, 10_000, 'reads answered by the primary');
      expect(movedIn).toBeLessThan(1_000);
      const readsWhileDown = status().reads;
      await replica.start();
      await waitUntil(() => status().up && status().reads > readsWhileDown, 15_000, 'reads back on the replica');
    } finally {
      stop = true;
      await load;
    }
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    expect(statuses.every((s) => s === 200)).toBe(true);
    expect(created).toBeGreaterThan(0);
  });

  it('the change feed shows a change as soon as its write has answered, its horizon moved on the primary and read again past it', async () => {
    // commits applied 400 ms late on the replica: a read that asked for a position older than the
    // horizon's move (made by the feed's own read, on the primary) would find the replica far enough and
    // read the old horizon there, without the change
    await replica.query(`ALTER SYSTEM SET recovery_min_apply_delay = '400ms'`);
    await replica.query('SELECT pg_reload_conf()');
    try {
      let cursor: string | null = null;
      for (let i = 0; i < 3; i += 1) {
        const id = await create(acme, `Feed ${i}`);
        // the replica has the change itself; the feed's horizon is still below it (no worker runs here)
        await caughtUp();
        const reads = status().reads;
        const res = await acme.v3('GET', `/change.list?itemsPerPage=100${cursor ? `&after=${cursor}` : ''}`);
        expect(res.status, res.text).toBe(200);
        const page = res.body as { items: { entityId: string; change: string }[]; nextCursor: string | null };
        expect(page.items.map((c) => `${c.change} ${c.entityId}`)).toContain(`created ${id}`);
        // its first read (the horizon) was the replica's
        expect(status().reads).toBeGreaterThan(reads);
        cursor = page.nextCursor;
      }
    } finally {
      await replica.query('ALTER SYSTEM RESET recovery_min_apply_delay');
      await replica.query('SELECT pg_reload_conf()');
    }
  });

  it('without DATABASE_REPLICA_URLS nothing routes: no router, no poll, a query read is its one statement on the primary', async () => {
    const sent: string[] = [];
    const prisma = createPrismaClient(clusters.primary.url('bo'), { max: 1, onQuery: (sql) => sent.push(sql) });
    try {
      expect(replicaRouterOf(prisma)).toBeUndefined();
      const rows = await tenantSql(prisma, 'env', { replicaReads: true }).read<{ e: string }>('SELECT $1::text AS e');
      expect(rows).toEqual([{ e: 'env' }]);
      expect(sent).toEqual(['SELECT $1::text AS e']);
    } finally {
      await prisma.$disconnect();
    }
  });

  // last: the replica is a primary of its own afterwards
  it('a promoted replica is not used: its reads go to the primary, without an error', async () => {
    await caughtUp();
    await replica.query('SELECT pg_promote()');
    await waitUntil(() => !status().standby, 5_000, 'the router to see the promotion');
    const before = status();
    const id = await create(acme, 'After Promotion');
    expect(await listNames(acme, 'After Promotion')).toEqual(['After Promotion']);
    expect((await acme.v3('GET', `/organization.get/${encodeURIComponent(id)}`)).status).toBe(200);
    expect(status().reads).toBe(before.reads);
  });
});
