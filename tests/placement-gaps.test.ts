// Environments on several clusters (issue 30, section 2): what the first placement left open. Users and
// maintenance windows are global rows, held on the first cluster only, while an environment's own rows
// may be on another; and a move must not lose a write admitted before its freeze whose transaction
// begins late. Two clusters are started here (tests/support/pg-cluster.ts), as in tests/placement.test.ts.
import { createCaller, systemClock } from '@bo/domain';
import { moveEnvironment } from '@bo/domain/placement/move-environment';
import { placementTestHooks } from '@bo/domain/trpc';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { HttpResponse } from './support/http.js';
import type { PgClusters } from './support/pg-cluster.js';
import { Receiver, sleep, waitFor } from './support/receiver.js';
import type { ApiClient, TestService } from './support/service.js';
import { startTwoClusters, type TwoClusters } from './support/two-clusters.js';
import { expectProblem } from './support/v3.js';

let clusters: TwoClusters;
let first: PgClusters;
let second: PgClusters;
let t: TestService;
let beta: ApiClient;
/** moved by the freeze-race test */
let gamma: ApiClient;
let receiver: Receiver;

type Envelope<T = Record<string, unknown>> = { data: T };

const q = <T extends Record<string, unknown>>(c: PgClusters, sql: string, params: unknown[] = []) =>
  clusters.q<T>(c, sql, params);

beforeAll(async () => {
  clusters = await startTwoClusters({ runWorker: true, webhooks: { pollIntervalMs: 25 } });
  ({ first, second, service: t } = clusters);
  receiver = await new Receiver().start();
  // the first goes to the first cluster, the second to the second (the least loaded, ties the earliest)
  await t.environment('acme');
  beta = await t.environment('beta');
}, 180_000);

afterEach(() => {
  placementTestHooks.afterAdmission = undefined;
});

afterAll(async () => {
  placementTestHooks.afterAdmission = undefined;
  await receiver?.stop();
  await clusters?.stop();
});

const environmentId = (name: string) => clusters.environmentId(name);

async function clusterOf(name: string): Promise<number> {
  const [row] = await q<{ cluster: number }>(first, 'SELECT cluster FROM environment_placement WHERE environment_id = $1', [
    await environmentId(name),
  ]);
  return row?.cluster ?? 0;
}

async function userOf(name: string): Promise<string> {
  const [row] = await q<{ id: string }>(
    first,
    'SELECT id FROM user_account WHERE environment_id = $1 ORDER BY created_at LIMIT 1',
    [await environmentId(name)],
  );
  if (!row) throw new Error(`no user in ${name}`);
  return row.id;
}

const v2Errors = (res: HttpResponse) => JSON.stringify((res.body as { errors?: unknown }).errors ?? res.body);

describe('global rows referred to by an environment on another cluster', () => {
  it('an employee of an environment on the second cluster refers to a user (held on the first): v2 and v3 create it and read it back with its user; an unknown user, or one of another environment, is refused (400 / 422)', async () => {
    expect(await clusterOf('beta')).toBe(1);
    const betaId = await environmentId('beta');
    const userId = await userOf('beta');
    // the user is on the first cluster only
    expect(await q(second, 'SELECT id FROM user_account WHERE id = $1', [userId])).toEqual([]);

    const v2 = await beta.v2('POST', '/hrm/employee', { name: 'Usha V2', user_id: userId });
    expect(v2.status, v2.text).toBe(200);
    const v2Id = (v2.body as Envelope<{ id: string }>).data.id;
    const v2Got = await beta.v2('GET', `/hrm/employee/${v2Id}`);
    expect(v2Got.status, v2Got.text).toBe(200);
    expect((v2Got.body as Envelope).data).toMatchObject({ id: v2Id, user_id: userId, is_user: 1 });
    const v2Listed = await beta.v2('GET', `/hrm/employee?q[user_id]=${encodeURIComponent(userId)}`);
    expect((v2Listed.body as Envelope<{ id: string }[]>).data.map((e) => e.id)).toEqual([v2Id]);

    const v3 = await beta.v3('POST', '/employee.create', { name: 'Ulla V3', userId });
    expect(v3.status, v3.text).toBe(201);
    const v3Id = (v3.body as { id: string }).id;
    const v3Got = await beta.v3('GET', `/employee.get/${v3Id}`);
    expect(v3Got.status, v3Got.text).toBe(200);
    expect(v3Got.body).toMatchObject({ id: v3Id, userId });
    // both written on the environment's cluster, none on the first
    const rows = await q<{ id: string; user_id: string }>(
      second,
      'SELECT id, user_id FROM employee WHERE environment_id = $1 AND id = ANY($2) ORDER BY name',
      [betaId, [v2Id, v3Id]],
    );
    expect(rows).toEqual([
      { id: v3Id, user_id: userId },
      { id: v2Id, user_id: userId },
    ]);

    // a user that does not exist, and a user of another environment, are no users of this one
    const stranger = await userOf('acme');
    for (const bad of ['user:nope', stranger]) {
      const refused = await beta.v2('POST', '/hrm/employee', { name: 'Nobody', user_id: bad });
      expect(refused.status, refused.text).toBe(400);
      expect(v2Errors(refused)).toContain('user_id');
      const edited = await beta.v2('PUT', `/hrm/employee/${v2Id}`, { user_id: bad });
      expect(edited.status, edited.text).toBe(400);
      const p = expectProblem(await beta.v3('POST', '/employee.create', { name: 'Nobody', userId: bad }), 422);
      expect(p.violations?.map((v) => v.propertyPath)).toEqual(['userId']);
    }
    const [kept] = await q<{ n: number }>(second, "SELECT count(*)::int AS n FROM employee WHERE name = 'Nobody'");
    expect(kept?.n).toBe(0);
  });

  it('2023-11 on the second cluster: the end of employment reads whether the employee’s user (held on the first) is blocked', async () => {
    const email = 'leaving@beta.test';
    await t.user('beta', email, { hrm: 'read' });
    const [user] = await q<{ id: string }>(first, 'SELECT id FROM user_account WHERE email = $1', [email]);
    const created = await beta.v3('POST', '/employee.create', { name: 'Leaving Lou', userId: user?.id });
    expect(created.status, created.text).toBe(201);
    const id = (created.body as { id: string }).id;
    const p = expectProblem(await beta.v3('POST', `/employee.endEmployment/${id}`, {}), 422);
    expect(p.detail).toContain('is not blocked');
    await q(first, 'UPDATE user_account SET is_active = false WHERE id = $1', [user?.id]);
    const ended = await beta.v3('POST', `/employee.endEmployment/${id}`, {});
    expect(ended.status, ended.text).toBe(200);
    expect(ended.body).toMatchObject({ id, employmentStatus: 'inactive', status: { key: 'unemployed' } });
  });
});

describe('maintenance windows (held on the first cluster) and the webhooks of another cluster', () => {
  it('webhook deliveries of an environment on the second cluster wait while it is in maintenance (pending, no attempt) and go out after it', async () => {
    expect(await clusterOf('beta')).toBe(1);
    const sub = await beta.v3('POST', '/webhook.create', { url: receiver.url, events: ['organization.created'] });
    expect(sub.status, sub.text).toBe(201);
    await t.system.admin.maintenance.on({ environment: 'beta' });
    // every process reads the windows at most every 2 s
    await sleep(2_200);
    expect((await beta.v2('POST', '/crm/organization', { name: 'Refused' })).status).toBe(503);
    // the doors are closed: the change comes through the domain
    const principal = await t.system.auth.authenticate({
      environment: 'beta',
      key: beta.token?.key ?? '',
      secret: beta.token?.secret ?? '',
    });
    const caller = createCaller({ prisma: t.service.database.prisma, principal, clock: systemClock });
    const { id } = await caller.crm.organization.create({ data: { name: 'Made in maintenance' } });
    const delivery = async () =>
      (
        await q<{ status: string; attempts: number }>(
          second,
          `SELECT d.status, d.attempts FROM webhook_delivery d JOIN event e ON e.id = d.event_id WHERE e.entity_id = $1`,
          [id],
        )
      )[0];
    // dispatched on the second cluster, and left there
    await waitFor(delivery, 10_000, 'the delivery row');
    await sleep(1_500);
    expect(receiver.received.filter((r) => r.body.data.id === id)).toEqual([]);
    expect(await delivery()).toMatchObject({ status: 'pending', attempts: 0 });

    await t.system.admin.maintenance.off({ environment: 'beta' });
    await waitFor(() => receiver.received.find((r) => r.body.data.id === id), 15_000, 'the delivery after maintenance');
    await waitFor(async () => (await delivery())?.status === 'succeeded', 10_000, 'the attempt recorded');
  }, 40_000);
});

describe('the freeze race of a move', () => {
  it('a mutation admitted before the freeze whose transaction begins during or after the move is refused with 503 + Retry-After or lands on the new cluster, never written on the old one', async () => {
    gamma = await t.environment('gamma');
    const gammaId = await environmentId('gamma');
    expect(await clusterOf('gamma')).toBe(0);
    expect((await gamma.v2('POST', '/crm/organization', { name: 'Before' })).status).toBe(200);

    // mutations of gamma are held once admitted (the placement said: cluster 0, not frozen), each until released
    const held: { release: () => void }[] = [];
    placementTestHooks.afterAdmission = async (environment) => {
      if (environment !== gammaId) return;
      await new Promise<void>((release) => held.push({ release }));
    };
    // three writes through three paths: a write transaction of our own (v2 create), Prisma's model
    // write (v3 webhook.create), and one more of our own released mid-move
    const late = gamma.v2('POST', '/crm/organization', { name: 'Admitted, begun after the move' });
    await waitFor(() => held.length === 1, 5_000, 'the first admission');
    const prisma = gamma.v3('POST', '/webhook.create', { url: receiver.url, events: ['organization.created'] });
    await waitFor(() => held.length === 2, 5_000, 'the second admission');
    const during = gamma.v2('POST', '/crm/organization', { name: 'Admitted, begun during the freeze' });
    await waitFor(() => held.length === 3, 5_000, 'the third admission');
    placementTestHooks.afterAdmission = undefined;

    const move = moveEnvironment({ prisma: t.service.database.prisma }, { environment: 'gamma', cluster: 1 });
    // the third begins once the freeze is set (the move then waits for it, or it is refused)
    await waitFor(
      async () =>
        (
          await q<{ f: boolean }>(first, 'SELECT writes_frozen AS f FROM environment_placement WHERE environment_id = $1', [
            gammaId,
          ])
        )[0]?.f,
      10_000,
      'the freeze',
    );
    held[2]?.release();
    const report = await move;
    expect(report).toMatchObject({ from: 0, to: 1 });
    // the first two begin after the move is over, with the placement they were admitted with
    held[0]?.release();
    held[1]?.release();

    const answers = [
      { res: await late, table: 'organization' },
      { res: await prisma, table: 'webhook_subscription' },
      { res: await during, table: 'organization' },
    ];
    console.info(`move ${JSON.stringify(report)}; held writes answered ${answers.map((a) => a.res.status).join(', ')}`);
    for (const { res, table } of answers) {
      if (res.status === 503) {
        expect(res.headers['retry-after'], res.text).toBe('2');
        continue;
      }
      expect([200, 201], res.text).toContain(res.status);
      const id = ((res.body as Envelope<{ id: string }>).data ?? (res.body as { id: string })).id;
      // an answered write is on the new cluster
      expect(
        await q(second, `SELECT id FROM ${table} WHERE environment_id = $1 AND id = $2`, [gammaId, id]),
        `${table} ${id}`,
      ).toHaveLength(1);
    }
    // the one released after the move is refused: its cluster was fenced off
    expect(answers[0]?.res.status).toBe(503);
    // nothing of gamma was written on the old cluster after its copy was removed
    for (const table of ['organization', 'webhook_subscription', 'event']) {
      const [left] = await q<{ n: number }>(first, `SELECT count(*)::int AS n FROM ${table} WHERE environment_id = $1`, [
        gammaId,
      ]);
      expect(left?.n, table).toBe(0);
    }
    // a retry goes to the new cluster
    const retried = await gamma.v2('POST', '/crm/organization', { name: 'Admitted, begun after the move' });
    expect(retried.status, retried.text).toBe(200);
    const retriedId = (retried.body as Envelope<{ id: string }>).data.id;
    expect(await q(second, 'SELECT id FROM organization WHERE id = $1', [retriedId])).toHaveLength(1);
  }, 120_000);

  it('an environment moved back to a cluster it left is written there again (the fence of the first move goes)', async () => {
    const gammaId = await environmentId('gamma');
    expect(await clusterOf('gamma')).toBe(1);
    expect(await q(first, 'SELECT environment_id FROM environment_fence')).toEqual([{ environment_id: gammaId }]);
    await moveEnvironment({ prisma: t.service.database.prisma }, { environment: 'gamma', cluster: 0 });
    expect(await q(first, 'SELECT environment_id FROM environment_fence')).toEqual([]);
    expect(await q(second, 'SELECT environment_id FROM environment_fence')).toEqual([{ environment_id: gammaId }]);
    const back = await gamma.v2('POST', '/crm/organization', { name: 'Back on the first' });
    expect(back.status, back.text).toBe(200);
    const id = (back.body as Envelope<{ id: string }>).data.id;
    expect(await q(first, 'SELECT id FROM organization WHERE id = $1', [id])).toHaveLength(1);
  }, 120_000);
});

describe('the catch-up of a move', () => {
  /** a new environment, the cluster it is on (the source) and the other (the target of its move) */
  async function movable(name: string) {
    const api = await t.environment(name);
    const id = await environmentId(name);
    const from = await clusterOf(name);
    const [source, target] = from === 0 ? [first, second] : [second, first];
    return { api, id, from, to: from === 0 ? 1 : 0, source, target };
  }

  it('a row deleted and made again with the same unique value during the bulk copy, and two rows that swapped a unique value, are caught up (no unique conflict), every row as on the old cluster', async () => {
    const { api: delta, id: deltaId, from, to, source, target } = await movable('delta');
    const created = await delta.v2('POST', '/crm/organization', {
      name: 'Readdressed',
      visiting_address: { line_1: 'Old street 1', locality: 'Utrecht', country_code: 'NL' },
    });
    expect(created.status, created.text).toBe(200);
    const readdressed = (created.body as Envelope<{ id: string }>).data.id;
    const both = await delta.v2('POST', '/crm/organization', {
      name: 'Swapped',
      visiting_address: { line_1: 'Visit 1', locality: 'Delft' },
      postal_address: { line_1: 'Post 1', locality: 'Gouda' },
    });
    expect(both.status, both.text).toBe(200);
    const swapped = (both.body as Envelope<{ id: string }>).data.id;
    const addresses = (c: PgClusters) =>
      q<{ id: string; organization_id: string; kind: string; line_1: string }>(
        c,
        'SELECT id, organization_id, kind, line_1 FROM organization_address WHERE environment_id = $1 ORDER BY id',
        [deltaId],
      );
    const before = await addresses(source);
    let written: Awaited<ReturnType<typeof addresses>> = [];

    // the address of the first is removed and given again (a new row, the same organization and kind); the
    // second's two swap their kinds in one transaction; all while the bulk copy is over and writes go on
    const afterBulkCopy = async () => {
      const removed = await delta.v2('PUT', `/crm/organization/${readdressed}`, { visiting_address: null });
      expect(removed.status, removed.text).toBe(200);
      const given = await delta.v2('PUT', `/crm/organization/${readdressed}`, {
        visiting_address: { line_1: 'New street 2', locality: 'Utrecht', country_code: 'NL' },
      });
      expect(given.status, given.text).toBe(200);
      // a unique key is checked row by row: the swap goes through a third value
      for (const [was, is] of [
        ['visiting', 'swapping'],
        ['postal', 'visiting'],
        ['swapping', 'postal'],
      ]) {
        await q(
          source,
          'UPDATE organization_address SET kind = $3 WHERE environment_id = $1 AND organization_id = $2 AND kind = $4',
          [deltaId, swapped, is, was],
        );
      }
      written = await addresses(source);
    };
    const report = await moveEnvironment(
      { prisma: t.service.database.prisma, afterBulkCopy },
      { environment: 'delta', cluster: to },
    );
    expect(report).toMatchObject({ from, to, deletedRows: 1 });
    expect(await clusterOf('delta')).toBe(to);
    const moved = await addresses(target);
    // the address given again has a new id; the old one is gone, on both clusters
    const oldAddress = before.find((a) => a.organization_id === readdressed);
    expect(moved.find((a) => a.id === oldAddress?.id)).toBeUndefined();
    expect(moved.filter((a) => a.organization_id === readdressed)).toEqual([
      expect.objectContaining({ kind: 'visiting', line_1: 'New street 2' }),
    ]);
    expect(
      moved
        .filter((a) => a.organization_id === swapped)
        .map((a) => `${a.kind}:${a.line_1}`)
        .sort(),
    ).toEqual(['postal:Visit 1', 'visiting:Post 1']);
    expect(moved).toEqual(written);
    expect(await addresses(source)).toEqual([]);
    // and the API reads them from the new cluster
    const read = await delta.v2('GET', `/crm/organization/${swapped}?select=visiting_address,postal_address`);
    expect(read.status, read.text).toBe(200);
    expect((read.body as Envelope).data).toMatchObject({
      visiting_address: { line_1: 'Post 1' },
      postal_address: { line_1: 'Visit 1' },
    });
  }, 120_000);

  it('a row deleted during the bulk copy, behind the page being copied, makes the copy skip no other row: every organization of the old cluster is on the new one', async () => {
    const { api: epsilon, id: epsilonId, from, to, source, target } = await movable('epsilon');
    for (let i = 0; i < 10; i += 1) {
      const created = await epsilon.v2('POST', '/crm/organization', { name: `Paged ${i}` });
      expect(created.status, created.text).toBe(200);
    }
    const ids = (c: PgClusters) =>
      q<{ id: string }>(c, 'SELECT id FROM organization WHERE environment_id = $1 ORDER BY id', [epsilonId]).then((rows) =>
        rows.map((r) => r.id),
      );
    let kept: string[] = [];
    // after the first page of three, the first organization (copied already) is deleted: a copy paged by
    // offset then started its second page one row too far
    const afterBulkPage = async (table: string, copied: number) => {
      if (table !== 'organization' || copied !== 3) return;
      const [firstId] = await ids(source);
      const gone = await epsilon.v2('DELETE', `/crm/organization/${firstId}`);
      expect(gone.status, gone.text).toBe(200);
      kept = await ids(source);
    };
    const report = await moveEnvironment(
      { prisma: t.service.database.prisma, afterBulkPage },
      { environment: 'epsilon', cluster: to, batchSize: 3 },
    );
    expect(report).toMatchObject({ from, to });
    expect(kept).toHaveLength(9);
    expect(await ids(target)).toEqual(kept);
    const listed = await epsilon.v2('GET', '/crm/organization?limit=100&metadata=count');
    expect((listed.body as { metadata?: { count?: number } }).metadata?.count).toBe(9);
  }, 120_000);
});
