import { createHmac } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCaller, systemClock } from '@bo/domain';
import { endpoints as v3Endpoints } from '@bo/api-v3';
import { Receiver, sleep, waitFor } from './support/receiver.js';
import { type ApiClient, startTestService, type TestService } from './support/service.js';

let t: TestService;
let acme: ApiClient;
const receivers: Receiver[] = [];

beforeAll(async () => {
  t = await startTestService({
    runWorker: true,
    webhooks: { retryBaseMs: 50, retryMaxDelayMs: 200, timeoutMs: 1_000, pollIntervalMs: 25 },
  });
  acme = await t.environment('acme');
});
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.stop()));
  await t?.stop();
});

/** An organization as the domain's output schema gives it, in JSON. */
async function domainOrganization(id: string): Promise<unknown> {
  const principal = await t.system.auth.authenticate({
    environment: 'acme',
    key: acme.token?.key ?? null,
    secret: acme.token?.secret ?? null,
  });
  const caller = createCaller({ prisma: t.service.database.prisma, principal, clock: systemClock });
  return JSON.parse(JSON.stringify(await caller.crm.organization.get({ id })));
}

async function receiver(reply?: ConstructorParameters<typeof Receiver>[0]): Promise<Receiver> {
  const r = await new Receiver(reply).start();
  receivers.push(r);
  return r;
}

async function subscribe(url: string, events: string[]): Promise<{ id: string; secret: string }> {
  const res = await acme.v3('POST', '/webhook.create', { url, events });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; secret: string };
}

async function createOrganization(name: string): Promise<string> {
  const res = await acme.v2('POST', '/crm/organization', { name });
  expect(res.status, res.text).toBe(200);
  return (res.body as { data: { id: string } }).data.id;
}

describe('webhook management (v3)', () => {
  it('webhook.create answers 201 with the id and a signing secret shown in that response only', async () => {
    const res = await acme.v3('POST', '/webhook.create', {
      url: 'http://127.0.0.1:9/never',
      events: ['organization.created'],
      description: 'shown once',
    });
    expect(res.status).toBe(201);
    const created = res.body as Record<string, unknown>;
    expect(created.id).toMatch(/^webhook:/);
    expect(created.secret).toMatch(/^whsec_/);
    const got = await acme.v3('GET', `/webhook.get/${encodeURIComponent(created.id as string)}`);
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({ id: created.id, url: 'http://127.0.0.1:9/never', events: ['organization.created'] });
    expect(got.text).not.toContain(created.secret as string);
    const list = await acme.v3('GET', '/webhook.list?itemsPerPage=30');
    expect(list.status).toBe(200);
    expect(list.text).not.toContain(created.secret as string);
    expect(list.body).toMatchObject({ page: 1, itemsPerPage: 30, totalItems: expect.any(Number) });
  });

  it('webhook.list is paged; webhook.edit changes what it names; webhook.delete removes it', async () => {
    const a = await subscribe('http://127.0.0.1:9/a', ['*']);
    const b = await subscribe('http://127.0.0.1:9/b', ['organization.*']);
    const page = await acme.v3('GET', '/webhook.list?itemsPerPage=1&page=2');
    expect(page.status).toBe(200);
    expect((page.body as { items: unknown[]; totalItems: number }).items).toHaveLength(1);
    const edit = await acme.v3('POST', '/webhook.edit', { id: b.id, events: ['organization.deleted'], isActive: false });
    expect(edit.status, edit.text).toBe(200);
    expect(edit.body).toMatchObject({ id: b.id, url: 'http://127.0.0.1:9/b', events: ['organization.deleted'], isActive: false });
    const del = await acme.v3('POST', '/webhook.delete', { id: a.id });
    expect(del.status).toBe(200);
    expect((await acme.v3('GET', `/webhook.get/${encodeURIComponent(a.id)}`)).status).toBe(404);
    expect((await acme.v3('POST', '/webhook.delete', { id: a.id })).status).toBe(404);
  });

  it('bad input is refused with a 4xx and nothing is stored', async () => {
    const before = (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM webhook_subscription'))[0]?.n;
    const cases: unknown[] = [
      {},
      { url: 'not a url', events: ['organization.created'] },
      { url: 'ftp://127.0.0.1/x', events: ['organization.created'] },
      { url: 'http://127.0.0.1:9/x', events: [] },
      { url: 'http://127.0.0.1:9/x', events: ['organization.renamed'] },
      { url: 'http://127.0.0.1:9/x', events: 'organization.created' },
      { url: 'http://127.0.0.1:9/x', events: ['organization.created'], colour: 'red' },
    ];
    for (const body of cases) {
      const res = await acme.v3('POST', '/webhook.create', body);
      expect([400, 422], `${JSON.stringify(body)} → ${res.status}`).toContain(res.status);
    }
    expect((await acme.v3('POST', '/webhook.edit', { id: 'webhook:nope', isActive: true })).status).toBe(404);
    expect((await acme.v3('GET', '/webhook.delivery.get/not-a-uuid')).status).toBe(404);
    expect((await acme.v3('GET', '/webhook.delivery.list?status=lost')).status).toBe(400);
    const after = (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM webhook_subscription'))[0]?.n;
    expect(after).toBe(before);
  });

  it('a token without the webhooks right gets 403', async () => {
    const crmOnly = await t.user('acme', 'crm-only@acme.test', { crm: 'write' });
    const res = await crmOnly.v3('POST', '/webhook.create', { url: 'http://127.0.0.1:9/x', events: ['*'] });
    expect(res.status).toBe(403);
    expect((await crmOnly.v3('GET', '/webhook.list')).status).toBe(403);
  });
});

describe('delivery', () => {
  it('a committed change is delivered as a signed POST {id, type, occurredAt, environment, data} with id, environment and signature headers', async () => {
    const r = await receiver();
    const sub = await subscribe(r.url, ['organization.created', 'organization.updated', 'organization.deleted']);
    const id = await createOrganization('Signed Org');
    const got = await waitFor(() => r.ofType('organization.created').find((x) => x.body.data.id === id), 10_000, 'delivery');
    expect(got.body).toMatchObject({ type: 'organization.created', environment: 'acme', data: { id, name: 'Signed Org' } });
    expect(new Date(got.body.occurredAt).toISOString()).toBe(got.body.occurredAt);
    const expected = `sha256=${createHmac('sha256', sub.secret).update(got.raw).digest('hex')}`;
    expect(got.headers['x-webhook-signature']).toBe(expected);
    expect(got.headers['x-webhook-id']).toBe(got.body.id);
    expect(got.headers['x-webhook-environment']).toBe('acme.localhost');
    // the entity as the domain declares it (its output schema), not a wire view of it
    expect(got.body.data).toEqual(await domainOrganization(id));
  });

  it('a change of a v3 shape does not change a webhook payload: events carry the domain entity', async () => {
    const r = await receiver();
    await subscribe(r.url, ['organization.created']);
    const endpoint = v3Endpoints['organization.get'];
    if (endpoint?.kind !== 'get') throw new Error('organization.get is an entity query');
    const original = endpoint.map;
    // the v3 adapter's shape of an organization changes: a renamed field, a dropped one
    endpoint.map = (o: { id: string; name: string }) => ({ id: o.id, title: o.name });
    try {
      const id = await createOrganization('Shape Change Org');
      const got = await waitFor(() => r.ofType('organization.created').find((x) => x.body.data.id === id), 10_000, 'delivery');
      const v3 = await acme.v3('GET', `/organization.get/${encodeURIComponent(id)}`);
      expect(v3.body).toEqual({ id, title: 'Shape Change Org' });
      expect(got.body.data).toEqual(await domainOrganization(id));
      expect(got.body.data).toMatchObject({ id, name: 'Shape Change Org', cocCode: null, debtor: expect.any(Object) });
      expect(got.body.payloadVersion).toBe(1);
    } finally {
      endpoint.map = original;
    }
  });

  it('changes through v2, v3-visible tRPC and deletes all emit <entity>.created|updated|deleted; a deletion carries its id and type', async () => {
    const r = await receiver();
    await subscribe(r.url, ['organization.*']);
    const id = await createOrganization('Lifecycle Org');
    const principal = await t.system.auth.authenticate({
      environment: 'acme',
      key: acme.token?.key ?? null,
      secret: acme.token?.secret ?? null,
    });
    const { createCaller, systemClock } = await import('@bo/domain');
    const caller = createCaller({ prisma: t.service.database.prisma, principal, clock: systemClock });
    await caller.crm.organization.update({ id, data: { name: 'Lifecycle Org 2' } });
    await acme.v2('DELETE', `/crm/organization/${id}`);
    const mine = () => r.received.filter((x) => x.body.data.id === id);
    await waitFor(() => mine().length >= 3, 10_000, 'three events');
    expect(mine().map((x) => x.body.type)).toEqual(['organization.created', 'organization.updated', 'organization.deleted']);
    expect(mine()[1]?.body.data).toMatchObject({ name: 'Lifecycle Org 2' });
    expect(mine()[2]?.body.data).toEqual({ id, type: 'organization' });
  });

  it('events of one subscription arrive in the order they happened', async () => {
    const r = await receiver((n) => ({ status: n % 3 === 0 ? 500 : 200 }));
    await subscribe(r.url, ['organization.created']);
    const ids: string[] = [];
    for (let i = 0; i < 8; i += 1) ids.push(await createOrganization(`Ordered ${i}`));
    await waitFor(
      () => new Set(r.received.filter((x) => ids.includes(x.body.data.id as string)).map((x) => x.body.id)).size === 8,
      15_000,
      'eight events',
    );
    // first arrival of each event, in arrival order
    const firsts: string[] = [];
    for (const x of r.received) if (!firsts.includes(x.body.data.id as string)) firsts.push(x.body.data.id as string);
    expect(firsts).toEqual(ids);
  });

  it('a receiver that answers 500 twice then 200 gets the event once, with three attempts logged', async () => {
    const r = await receiver((n) => ({ status: n <= 2 ? 500 : 200 }));
    const sub = await subscribe(r.url, ['organization.created']);
    const id = await createOrganization('Flaky Receiver Org');
    await waitFor(() => r.received.length >= 3, 10_000, 'three requests');
    await sleep(300);
    expect(r.received).toHaveLength(3);
    expect(new Set(r.received.map((x) => x.headers['x-webhook-id'])).size).toBe(1);
    expect(r.received.map((x) => x.headers['x-webhook-attempt'])).toEqual(['1', '2', '3']);
    const log = await waitFor(async () => {
      const res = await acme.v3('GET', `/webhook.delivery.list?webhookId=${encodeURIComponent(sub.id)}`);
      const item = (res.body as { items: Record<string, unknown>[] }).items[0];
      return item?.status === 'succeeded' ? item : null;
    });
    expect(log).toMatchObject({ eventType: 'organization.created', attempts: 3, lastStatusCode: 200 });
    const entries = log.log as { attempt: number; statusCode: number; latencyMs: number; error: string | null }[];
    expect(entries.map((e) => [e.attempt, e.statusCode])).toEqual([
      [1, 500],
      [2, 500],
      [3, 200],
    ]);
    expect(entries[0]?.error).toContain('500');
    expect(entries.every((e) => typeof e.latencyMs === 'number')).toBe(true);
    expect(r.received[0]?.body.data.id).toBe(id);
  });

  it('after the retry window a delivery is marked failed, and webhook.delivery.resend sends it again', async () => {
    // a window of 2 s, not less: on a loaded machine a first attempt alone has outlasted 300 ms, leaving no retry to see
    const short = await startTestService({
      runWorker: true,
      webhooks: { retryBaseMs: 30, retryMaxDelayMs: 60, retryWindowMs: 2_000, timeoutMs: 500, pollIntervalMs: 25 },
    });
    try {
      const client = await short.environment('shortwin');
      let up = false;
      const r = await receiver(() => ({ status: up ? 200 : 503 }));
      const sub = (await client.v3('POST', '/webhook.create', { url: r.url, events: ['organization.created'] })).body as {
        id: string;
      };
      await client.v2('POST', '/crm/organization', { name: 'Gives Up' });
      const failed = await waitFor(
        async () => {
          const res = await client.v3('GET', `/webhook.delivery.list?webhookId=${encodeURIComponent(sub.id)}&status=failed`);
          return (res.body as { items: { id: string; attempts: number }[] }).items[0];
        },
        10_000,
        'failed delivery',
      );
      expect(failed.attempts).toBeGreaterThan(1);
      up = true;
      const before = r.received.length;
      const resend = await client.v3('POST', '/webhook.delivery.resend', { id: failed.id });
      expect(resend.status, resend.text).toBe(200);
      await waitFor(() => r.received.length > before, 5_000, 'resend');
      const done = await waitFor(async () => {
        const res = await client.v3('GET', `/webhook.delivery.get/${failed.id}`);
        return (res.body as { status: string }).status === 'succeeded' ? res.body : null;
      });
      expect(done).toMatchObject({ status: 'succeeded' });
      // only a failed delivery can be sent again
      expect((await client.v3('POST', '/webhook.delivery.resend', { id: failed.id })).status).toBe(422);
    } finally {
      await short.stop();
    }
  });

  it('a receiver that is down for a while gets the event after it comes back', async () => {
    const r = await receiver();
    const port = r.port;
    await subscribe(r.url, ['organization.created']);
    await r.stop();
    const id = await createOrganization('Receiver Was Down');
    await sleep(400);
    await r.start(port);
    const got = await waitFor(() => r.received.find((x) => x.body.data.id === id), 10_000, 'delivery after restart');
    expect(Number(got.headers['x-webhook-attempt'])).toBeGreaterThan(1);
  });

  it('a rolled-back transaction sends nothing; a transaction committing after a later one is not lost', async () => {
    const r = await receiver();
    await subscribe(r.url, ['organization.created']);
    const env = (await t.db.query<{ id: string }>(`SELECT id FROM environment WHERE name = 'acme'`))[0]?.id;
    const insertEvent = (c: pg.Client, orgId: string) =>
      c.query(
        `INSERT INTO event (id, environment_id, type, entity_type, entity_id, data) VALUES (gen_random_uuid(), $1, 'organization.created', 'organization', $2, $3)`,
        [env, orgId, JSON.stringify({ id: orgId, name: orgId })],
      );
    const rolledBack = new pg.Client({ connectionString: t.db.url });
    const slow = new pg.Client({ connectionString: t.db.url });
    await rolledBack.connect();
    await slow.connect();
    try {
      await rolledBack.query('BEGIN');
      await insertEvent(rolledBack, 'organization:rolled-back');
      await slow.query('BEGIN');
      await insertEvent(slow, 'organization:slow-commit');
      // a later transaction commits first (its seq is higher)
      const later = await createOrganization('Commits First');
      await rolledBack.query('ROLLBACK');
      await sleep(300);
      await slow.query('COMMIT');
      await waitFor(() => r.received.find((x) => x.body.data.id === 'organization:slow-commit'), 10_000, 'slow commit');
      await waitFor(() => r.received.find((x) => x.body.data.id === later), 10_000, 'later commit');
      await sleep(300);
      expect(r.received.find((x) => x.body.data.id === 'organization:rolled-back')).toBeUndefined();
    } finally {
      await rolledBack.end();
      await slow.end();
    }
  });

  it('targets on loopback, private or link-local addresses are refused unless WEBHOOK_ALLOW_PRIVATE_TARGETS=true', async () => {
    const strict = await startTestService({ webhooks: { allowPrivateTargets: false } });
    try {
      const client = await strict.environment('strict');
      for (const url of [
        'http://127.0.0.1:8080/x',
        'http://10.1.2.3/x',
        'http://169.254.169.254/latest',
        'http://[::1]/x',
        'http://localhost/x',
        'http://192.168.0.10/x',
      ]) {
        const res = await client.v3('POST', '/webhook.create', { url, events: ['*'] });
        expect(res.status, url).toBe(422);
        expect((res.body as { violations: { propertyPath: string }[] }).violations[0]?.propertyPath).toBe('url');
      }
      const n = await strict.db.query<{ n: number }>('SELECT count(*)::int AS n FROM webhook_subscription');
      expect(n[0]?.n).toBe(0);
    } finally {
      await strict.stop();
    }
  });

  it('a subscription stored with a private target is refused again at delivery time when private targets are not allowed', async () => {
    const { checkTarget } = await import('@bo/domain/webhooks/target-policy');
    expect(await checkTarget(new URL('http://127.0.0.1:1/x'), false)).toMatchObject({ ok: false });
    expect(await checkTarget(new URL('http://[::ffff:10.0.0.1]/x'), false)).toMatchObject({ ok: false });
    expect(await checkTarget(new URL('http://8.8.8.8/x'), false)).toMatchObject({ ok: true });
    expect(await checkTarget(new URL('http://127.0.0.1:1/x'), true)).toMatchObject({ ok: true });
  });
});
