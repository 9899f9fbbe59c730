// Environments placed on several PostgreSQL clusters, moved online (issue 30, section 2). Two clusters
// are started here (initdb, tests/support/pg-cluster.ts); the service runs on both with DATABASE_URLS.
// Where each row lives is read on the servers themselves.
import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { placementOf } from '@bo/db';
import { type MoveReport, moveEnvironment } from '@bo/domain/placement/move-environment';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PgClusters } from './support/pg-cluster.js';
import { Receiver, waitFor } from './support/receiver.js';
import type { ApiClient, TestService } from './support/service.js';
import { startTwoClusters, type TwoClusters } from './support/two-clusters.js';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '..');

let clusters: TwoClusters;
let first: PgClusters;
let second: PgClusters;
let t: TestService;
let acme: ApiClient;
let beta: ApiClient;
let receiver: Receiver;

type Envelope<T = Record<string, unknown>> = { data: T };
type Page = { items: { id: string; name: string }[] };
interface FeedPage {
  items: { cursor: string; entityType: string; entityId: string; change: string }[];
  nextCursor: string | null;
  hasMore: boolean;
}

const q = <T extends Record<string, unknown>>(c: PgClusters, sql: string, params: unknown[] = []) =>
  clusters.q<T>(c, sql, params);

beforeAll(async () => {
  // the worker in process: a job queue and delivery loops per cluster
  clusters = await startTwoClusters({ runWorker: true });
  ({ first, second, service: t } = clusters);
  receiver = await new Receiver().start();
  acme = await t.environment('acme');
  beta = await t.environment('beta');
}, 180_000);

afterAll(async () => {
  await receiver?.stop();
  await clusters?.stop();
});

const environmentId = (name: string) => clusters.environmentId(name);

async function organizationsOn(c: PgClusters, environment: string): Promise<string[]> {
  const id = await environmentId(environment);
  const rows = await q<{ name: string }>(c, 'SELECT name FROM organization WHERE environment_id = $1 ORDER BY name', [id]);
  return rows.map((r) => r.name);
}

async function create(client: ApiClient, name: string): Promise<string> {
  const res = await client.v2('POST', '/crm/organization', { name });
  expect(res.status, res.text).toBe(200);
  return (res.body as Envelope<{ id: string }>).data.id;
}

describe('placement on several clusters', () => {
  it('each cluster runs every migration (on start), and db:migrate migrates them all', async () => {
    const folders = readdirSync(path.join(root, 'packages/db/prisma/migrations')).filter((f) => /^\d/.test(f)).length;
    for (const c of [first, second]) {
      const [row] = await q<{ n: number }>(c, 'SELECT count(*)::int AS n FROM _prisma_migrations WHERE finished_at IS NOT NULL');
      expect(row?.n).toBe(folders);
    }
    const { stdout } = await run('npx', ['tsx', 'packages/db/src/cli/migrate.ts', 'deploy'], {
      cwd: root,
      env: { ...process.env, DATABASE_URLS: `${first.primary.url('bo')},${second.primary.url('bo')}` },
    });
    expect(stdout).toMatch(/Cluster 0 \(127\.0\.0\.1:\d+\/bo\): Database is up to date/);
    expect(stdout).toMatch(/Cluster 1 \(127\.0\.0\.1:\d+\/bo\): Database is up to date/);
  }, 60_000);

  it('a new environment goes to the least loaded cluster; global data (environments, users, tokens, placement) stays on the first', async () => {
    const placed = await q<{ name: string; cluster: number }>(
      first,
      'SELECT e.name, p.cluster FROM environment_placement p JOIN environment e ON e.id = p.environment_id ORDER BY e.name',
    );
    expect(placed).toEqual([
      { name: 'acme', cluster: 0 },
      { name: 'beta', cluster: 1 },
    ]);
    const betaId = await environmentId('beta');
    for (const table of ['user_account', 'api_token']) {
      const [onFirst] = await q<{ n: number }>(first, `SELECT count(*)::int AS n FROM ${table} WHERE environment_id = $1`, [
        betaId,
      ]);
      const [onSecond] = await q<{ n: number }>(second, `SELECT count(*)::int AS n FROM ${table} WHERE environment_id = $1`, [
        betaId,
      ]);
      expect(onFirst?.n, table).toBeGreaterThan(0);
      expect(onSecond?.n, table).toBe(0);
    }
    // the second cluster holds a copy of its own environments' rows only (for its worker's joins)
    expect(await q(second, 'SELECT name FROM environment')).toEqual([{ name: 'beta' }]);
    // the environment's seeded defaults were written on its own cluster
    const [seeded] = await q<{ n: number }>(second, 'SELECT count(*)::int AS n FROM project_status WHERE environment_id = $1', [
      betaId,
    ]);
    const [seededElsewhere] = await q<{ n: number }>(
      first,
      'SELECT count(*)::int AS n FROM project_status WHERE environment_id = $1',
      [betaId],
    );
    expect(seeded?.n).toBeGreaterThan(0);
    expect(seededElsewhere?.n).toBe(0);
  });

  it('v2 and v3 reads and writes reach the environment’s cluster, and its events are in that cluster’s outbox', async () => {
    const a = await create(acme, 'Acme Org');
    const b = await create(beta, 'Beta Org');
    expect(await organizationsOn(first, 'acme')).toEqual(['Acme Org']);
    expect(await organizationsOn(second, 'acme')).toEqual([]);
    expect(await organizationsOn(second, 'beta')).toEqual(['Beta Org']);
    expect(await organizationsOn(first, 'beta')).toEqual([]);
    // v3 writes too, and both versions read what the other wrote
    const v3 = await beta.v3('POST', '/employee.create', { name: 'Bea V3' });
    expect(v3.status, v3.text).toBe(201);
    const employees = await q<{ name: string }>(second, 'SELECT name FROM employee WHERE environment_id = $1', [
      await environmentId('beta'),
    ]);
    expect(employees.map((e) => e.name)).toEqual(['Bea V3']);
    expect(await q(first, "SELECT id FROM employee WHERE name = 'Bea V3'")).toEqual([]);
    const listed = await beta.v3('GET', '/organization.list');
    expect(listed.status, listed.text).toBe(200);
    expect((listed.body as Page).items.map((o) => o.name)).toEqual(['Beta Org']);
    const v2List = await beta.v2('GET', '/crm/organization');
    expect(v2List.status, v2List.text).toBe(200);
    expect((v2List.body as Envelope<{ name: string }[]>).data.map((o) => o.name)).toEqual(['Beta Org']);
    const got = await beta.v2('GET', `/crm/organization/${b}`);
    expect(got.status, got.text).toBe(200);
    // an id of another environment on another cluster is not found
    expect((await beta.v2('GET', `/crm/organization/${a}`)).status).toBe(404);
    const [events] = await q<{ n: number }>(second, 'SELECT count(*)::int AS n FROM event WHERE environment_id = $1', [
      await environmentId('beta'),
    ]);
    // the organization's and the employee's creates, in the second cluster's outbox only
    expect(events?.n).toBeGreaterThanOrEqual(2);
    const [elsewhere] = await q<{ n: number }>(first, 'SELECT count(*)::int AS n FROM event WHERE environment_id = $1', [
      await environmentId('beta'),
    ]);
    expect(elsewhere?.n).toBe(0);
    // the change feed of an environment on the second cluster
    const feed = await beta.v3('GET', '/change.list');
    expect(feed.status, feed.text).toBe(200);
    expect((feed.body as FeedPage).items.filter((i) => i.entityType === 'organization').length).toBe(1);
  });

  it('an Idempotency-Key of an environment on the second cluster: the create runs once, its repeat replays the answer (the key store is the first cluster’s)', async () => {
    const body = { name: 'Keyed on the second cluster' };
    const headers = { 'idempotency-key': 'placement-key-1' };
    const firstTry = await beta.v2('POST', '/crm/organization', body, { headers });
    expect(firstTry.status, firstTry.text).toBe(200);
    const repeat = await beta.v2('POST', '/crm/organization', body, { headers });
    expect(repeat.status, repeat.text).toBe(200);
    expect(repeat.headers['idempotent-replayed']).toBe('true');
    expect(repeat.body).toEqual(firstTry.body);
    const [made] = await q<{ n: number }>(
      second,
      `SELECT count(*)::int AS n FROM organization WHERE name = 'Keyed on the second cluster'`,
    );
    expect(made?.n).toBe(1);
    // the key itself is kept on the first cluster, with the other global data
    const [kept] = await q<{ n: number }>(first, 'SELECT count(*)::int AS n FROM idempotency_key');
    expect(kept?.n).toBeGreaterThan(0);
  });

  it('a webhook of an environment on the second cluster is delivered by that cluster’s loop, from its outbox', async () => {
    const sub = await beta.v3('POST', '/webhook.create', { url: receiver.url, events: ['organization.created'] });
    expect(sub.status, sub.text).toBe(201);
    const id = await create(beta, 'Beta Hooked');
    await waitFor(() => receiver.received.find((r) => r.body.data.id === id), 15_000, 'the delivery');
    const betaId = await environmentId('beta');
    const [onSecond] = await q<{ n: number }>(
      second,
      'SELECT count(*)::int AS n FROM webhook_delivery WHERE environment_id = $1',
      [betaId],
    );
    const [onFirst] = await q<{ n: number }>(first, 'SELECT count(*)::int AS n FROM webhook_delivery WHERE environment_id = $1', [
      betaId,
    ]);
    expect(onSecond?.n).toBeGreaterThanOrEqual(1);
    expect(onFirst?.n).toBe(0);
  }, 30_000);

  it('a move while a reader and a writer run: reads never fail, writes pause (503 + Retry-After) then land on the new cluster, nothing lost or read twice, the old copy removed', async () => {
    const gamma = await t.environment('gamma');
    const gammaId = await environmentId('gamma');
    const [placedOn] = await q<{ cluster: number }>(
      first,
      'SELECT cluster FROM environment_placement WHERE environment_id = $1',
      [gammaId],
    );
    expect(placedOn?.cluster).toBe(0);
    const before: string[] = [];
    for (let i = 0; i < 150; i += 1) before.push(await create(gamma, `Before ${String(i).padStart(3, '0')}`));

    // an address (a table without updated_at: the catch-up finds changed rows by their transaction id)
    // rewritten through the move: the new cluster holds its last accepted version
    const moving = await gamma.v2('POST', '/crm/organization', {
      name: 'Moving address',
      visiting_address: { line_1: 'Street -1' },
    });
    expect(moving.status).toBe(200);
    const movingId = (moving.body as Envelope<{ id: string }>).data.id;
    let lastLine = 'Street -1';

    const statuses: number[] = [];
    const retryAfter: (string | undefined)[] = [];
    const written: string[] = [];
    const feedCursors: string[] = [];
    let feedCursor: string | null = null;
    let stop = false;
    const writer = (async () => {
      for (let i = 0; !stop; i += 1) {
        const res = await gamma.v2('POST', '/crm/organization', { name: `During ${i}` });
        statuses.push(res.status);
        if (res.status === 200) written.push((res.body as Envelope<{ id: string }>).data.id);
        const line = `Street ${i}`;
        const moved = await gamma.v2('PUT', `/crm/organization/${movingId}`, { visiting_address: { line_1: line } });
        statuses.push(moved.status);
        if (moved.status === 200) lastLine = line;
        if (res.status === 503) {
          retryAfter.push(res.headers['retry-after'] as string | undefined);
          await new Promise((r) => setTimeout(r, 100));
        }
      }
    })();
    const reader = (async () => {
      while (!stop) {
        const list = await gamma.v3('GET', '/organization.list?itemsPerPage=5');
        statuses.push(list.status);
        const page = await gamma.v3('GET', `/change.list?itemsPerPage=50${feedCursor ? `&after=${feedCursor}` : ''}`);
        statuses.push(page.status);
        if (page.status === 200) {
          const body = page.body as FeedPage;
          feedCursors.push(...body.items.map((i) => i.cursor));
          feedCursor = body.nextCursor ?? feedCursor;
        }
      }
    })();
    let report: MoveReport;
    try {
      await new Promise((r) => setTimeout(r, 500));
      report = await moveEnvironment({ prisma: t.service.database.prisma }, { environment: 'gamma', cluster: 1, batchSize: 50 });
      // writes land on the new cluster after the move
      await new Promise((r) => setTimeout(r, 1_000));
    } finally {
      stop = true;
      await Promise.allSettled([writer, reader]);
    }

    console.info(`move: ${JSON.stringify(report)}; writes ${written.length} ok, ${retryAfter.length} answered 503`);
    expect(report).toMatchObject({ environment: 'gamma', from: 0, to: 1 });
    expect(report.rows).toBeGreaterThanOrEqual(150);
    // the block is the catch-up and two placement periods: seconds
    expect(report.writesBlockedMs).toBeGreaterThan(0);
    expect(report.writesBlockedMs).toBeLessThan(15_000);
    // no answer was a 5xx but the writes' 503, and each of those said when to retry
    expect(statuses.filter((s) => s >= 500 && s !== 503)).toEqual([]);
    expect(statuses.filter((s) => s !== 200 && s !== 503)).toEqual([]);
    expect(retryAfter.length).toBeGreaterThan(0);
    expect(retryAfter.every((r) => r === '2')).toBe(true);
    // reads kept working while writes paused: every list and feed read answered 200
    expect(written.length).toBeGreaterThan(0);

    const placement = placementOf(t.service.database.prisma);
    expect((await placement?.read(gammaId))?.cluster.index).toBe(1);
    // every record, before and during the move, is on the new cluster; nothing is left on the old one
    const onNew = await q<{ id: string }>(second, 'SELECT id FROM organization WHERE environment_id = $1', [gammaId]);
    const ids = new Set(onNew.map((r) => r.id));
    for (const id of [...before, ...written]) expect(ids.has(id), id).toBe(true);
    const [address] = await q<{ line_1: string }>(
      second,
      "SELECT line_1 FROM organization_address WHERE organization_id = $1 AND kind = 'visiting'",
      [movingId],
    );
    expect(address?.line_1).toBe(lastLine);
    expect(lastLine).not.toBe('Street -1');
    for (const table of ['organization', 'event', 'project_status']) {
      const [left] = await q<{ n: number }>(first, `SELECT count(*)::int AS n FROM ${table} WHERE environment_id = $1`, [
        gammaId,
      ]);
      expect(left?.n, table).toBe(0);
    }
    // users and tokens did not move
    const [users] = await q<{ n: number }>(first, 'SELECT count(*)::int AS n FROM user_account WHERE environment_id = $1', [
      gammaId,
    ]);
    expect(users?.n).toBe(1);

    // the change feed, followed through the move: no change twice, in order, and every create in it
    for (;;) {
      const page = await gamma.v3('GET', `/change.list?itemsPerPage=100${feedCursor ? `&after=${feedCursor}` : ''}`);
      expect(page.status, page.text).toBe(200);
      const body = page.body as FeedPage;
      feedCursors.push(...body.items.map((i) => i.cursor));
      feedCursor = body.nextCursor ?? feedCursor;
      if (!body.hasMore) break;
    }
    expect(new Set(feedCursors).size).toBe(feedCursors.length);
    const asNumbers = feedCursors.map((c) => BigInt(c));
    expect(asNumbers).toEqual([...asNumbers].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0)));
    const [events] = await q<{ n: number }>(
      second,
      "SELECT count(*)::int AS n FROM event WHERE environment_id = $1 AND type LIKE '%created'",
      [gammaId],
    );
    expect(events?.n).toBeGreaterThanOrEqual(before.length + written.length);

    // and a write after the move is on the new cluster, readable at once
    const after = await create(gamma, 'After the move');
    expect((await q(second, 'SELECT id FROM organization WHERE id = $1', [after])).length).toBe(1);
    const got = await gamma.v3('GET', '/organization.list?name=After%20the%20move');
    expect((got.body as Page).items.map((o) => o.id)).toEqual([after]);
  }, 180_000);
});
