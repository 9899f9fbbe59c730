import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCaller, systemClock } from '@bo/domain';
import { send } from './support/http.js';
import { Receiver, sleep, waitFor } from './support/receiver.js';
import { type ApiClient, startTestService, type TestService, type Token } from './support/service.js';

/**
 * Every door (v2, v3, /trpc over HTTP) has the same guards: authentication, one rate
 * budget per token, a 1 MB body limit, a batch limit, errors with no stack, file path
 * or database message, and a NUL byte answered 400; maintenance and the failed-auth
 * throttle answer in each door's own shape.
 */
type Door = 'v2' | 'v3' | 'trpc';
const DOORS: Door[] = ['v2', 'v3', 'trpc'];

function authHeaders(door: Door, token: Token): Record<string, string> {
  return door === 'v2'
    ? { 'authentication-key': token.key, 'authentication-secret': token.secret }
    : { authorization: `Bearer ${token.key}:${token.secret}` };
}

/** A write through each door that creates one organization (or a webhook, in v3). */
function write(door: Door, port: number, host: string, token: Token, body: unknown) {
  const headers = { ...authHeaders(door, token), 'content-type': 'application/json' };
  const path =
    door === 'v2' ? '/api/v2/crm/organization' : door === 'v3' ? '/api/v3/webhook.create' : '/trpc/crm.organization.create';
  return send(port, 'POST', path, { host, headers, body });
}

/** A plain read through each door. */
function read(door: Door, port: number, host: string, token: Token | null) {
  const headers = token ? authHeaders(door, token) : {};
  const path =
    door === 'v2'
      ? '/api/v2/crm/organization?limit=1'
      : door === 'v3'
        ? '/api/v3/organization.list'
        : `/trpc/crm.organization.list?input=${encodeURIComponent(JSON.stringify({ limit: 1 }))}`;
  return send(port, 'GET', path, { host, headers });
}

/** The error shape each door answers in. */
function expectShape(door: Door, status: number, res: { status: number; body: unknown; text: string }) {
  expect(res.status).toBe(status);
  if (door === 'v2') expect(res.body).toMatchObject({ data: null, debug: null, errors: [expect.any(String)] });
  if (door === 'v3') expect(res.body).toMatchObject({ type: `/errors/${status}`, status, detail: expect.any(String) });
  if (door === 'trpc') {
    const body = (Array.isArray(res.body) ? res.body[0] : res.body) as { error: { data: { httpStatus: number } } };
    expect(body.error.data.httpStatus).toBe(status);
  }
}

/** Nothing internal in an answer: no stack frame, no file path, no SQL or PostgreSQL wording. */
function expectNothingInternal(text: string) {
  expect(text).not.toMatch(
    /\bat [\w.<>]+ \(|\/work\/|node_modules|\.ts:\d+|stack|invalid byte sequence|SQLSTATE|PrismaClient|prisma\./i,
  );
}

describe('every door × guard', () => {
  let t: TestService;
  let acme: ApiClient;
  const previousEnv = process.env.NODE_ENV;

  beforeAll(async () => {
    // a development NODE_ENV must not bring stack traces into answers
    process.env.NODE_ENV = 'development';
    t = await startTestService({ limits: { trpcMaxBatch: 10 } });
    acme = await t.environment('acme');
  });
  afterAll(async () => {
    process.env.NODE_ENV = previousEnv;
    await t?.stop();
  });

  it.each(DOORS)('%s: an oversized body (2 MB) answers 413 in the door’s shape, without reading it whole', async (door) => {
    const big = { name: 'x'.repeat(2 * 1024 * 1024) };
    const res = await write(door, t.service.port, 'acme.localhost', acme.token as Token, big);
    expectShape(door, 413, res);
  });

  it.each(DOORS)('%s: a NUL byte in a text answers 400 and stores nothing', async (door) => {
    const body =
      door === 'v3'
        ? { url: 'http://127.0.0.1:9/hook', events: ['*'], description: 'nul\u0000byte' }
        : door === 'v2'
          ? { name: 'nul\u0000byte' }
          : { data: { name: 'nul\u0000byte' } };
    const res = await write(door, t.service.port, 'acme.localhost', acme.token as Token, body);
    expectShape(door, 400, res);
    expectNothingInternal(res.text);
  });

  it.each(DOORS)('%s: no credentials and wrong credentials answer 401; nothing internal in the answer', async (door) => {
    const none = await read(door, t.service.port, 'acme.localhost', null);
    expect(none.status).toBe(door === 'v2' ? 401 : 401);
    const wrong = await read(door, t.service.port, 'acme.localhost', { key: acme.token?.key ?? '', secret: 'wrong' });
    expect(wrong.status).toBe(401);
    expectNothingInternal(none.text + wrong.text);
  });

  it('trpc: a batch over the limit answers 400; at the limit it runs', async () => {
    const call = (n: number) => {
      const paths = Array.from({ length: n }, () => 'crm.organization.list').join(',');
      const input = Object.fromEntries(Array.from({ length: n }, (_, i) => [i, { limit: 1 }]));
      return send(t.service.port, 'GET', `/trpc/${paths}?batch=1&input=${encodeURIComponent(JSON.stringify(input))}`, {
        host: 'acme.localhost',
        headers: authHeaders('trpc', acme.token as Token),
      });
    };
    const over = await call(11);
    expect(over.status).toBe(400);
    expectNothingInternal(over.text);
    const at = await call(10);
    expect(at.status).toBe(200);
    expect((at.body as unknown[]).length).toBe(10);
  });

  it('trpc: errors carry no stack, file path or database message, whatever NODE_ENV says', async () => {
    const unknown = await send(t.service.port, 'GET', '/trpc/no.such.procedure', {
      host: 'acme.localhost',
      headers: authHeaders('trpc', acme.token as Token),
    });
    expect(unknown.status).toBe(404);
    const bad = await send(t.service.port, 'POST', '/trpc/crm.organization.create', {
      host: 'acme.localhost',
      headers: { ...authHeaders('trpc', acme.token as Token), 'content-type': 'application/json' },
      body: { data: { name: 12 } },
    });
    expect(bad.status).toBe(400);
    const system = await send(t.service.port, 'POST', '/trpc/admin.environment.create', {
      host: 'acme.localhost',
      headers: { ...authHeaders('trpc', acme.token as Token), 'content-type': 'application/json' },
      body: { name: 'sneaky' },
    });
    expect(system.status).toBe(403);
    for (const res of [unknown, bad, system]) expectNothingInternal(res.text);
  });

  it('v3: endpoint names that are built-in object properties answer a 404 problem at once', async () => {
    const names = [
      'constructor',
      '__proto__',
      'toString',
      'valueOf',
      'hasOwnProperty',
      'isPrototypeOf',
      'propertyIsEnumerable',
      'toLocaleString',
      '__defineGetter__',
      '__lookupSetter__',
    ];
    for (const name of names) {
      for (const path of [`/${name}`, `/${name}/x`]) {
        const res = await Promise.race([
          acme.v3('GET', path),
          new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${path} did not answer`)), 3_000)),
        ]);
        expect(res.status, path).toBe(404);
        expect(res.body).toMatchObject({ type: '/errors/404', status: 404 });
      }
    }
  });

  it('v2: built-in property names in filters, operators and sorts answer 400, never 500', async () => {
    for (const q of [
      'q[constructor]=x',
      'q[__proto__]=x',
      'q[name][constructor]=x',
      'q[toString.name]=x',
      'sort=constructor',
      'sort=valueOf.name',
    ]) {
      const res = await acme.v2('GET', `/crm/organization?${q}`);
      expect(res.status, q).toBe(400);
    }
  });
});

describe('one rate budget per token across v2, v3 and /trpc', () => {
  let t: TestService;
  let acme: ApiClient;
  beforeAll(async () => {
    t = await startTestService({ rateLimitPerMinute: 6 });
    acme = await t.environment('budget');
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('requests through every door spend one budget; past it, every door answers 429 in its shape', async () => {
    const token = acme.token as Token;
    for (const door of DOORS) {
      for (let i = 0; i < 2; i += 1) expect((await read(door, t.service.port, 'budget.localhost', token)).status).toBe(200);
    }
    for (const door of DOORS) {
      const res = await read(door, t.service.port, 'budget.localhost', token);
      expectShape(door, 429, res);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    }
    // a write through /trpc is refused too (it used to create records past the limit)
    const created = await write('trpc', t.service.port, 'budget.localhost', token, { data: { name: 'Past the limit' } });
    expect(created.status).toBe(429);
    const [row] = await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM organization WHERE name = 'Past the limit'`);
    expect(row?.n).toBe(0);
  });
});

describe('failed authentications are throttled per client address', () => {
  let t: TestService;
  let acme: ApiClient;
  beforeAll(async () => {
    t = await startTestService({ limits: { authFailuresPerMinute: 5 } });
    acme = await t.environment('guess');
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('after a burst of failures, the address gets 429 in every door’s shape, even with good credentials', async () => {
    const wrong = { key: acme.token?.key ?? '', secret: 'guess' };
    const statuses: number[] = [];
    for (let i = 0; i < 7; i += 1) statuses.push((await read('v2', t.service.port, 'guess.localhost', wrong)).status);
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses.slice(6)).toEqual([429]);
    for (const door of DOORS) {
      const res = await read(door, t.service.port, 'guess.localhost', acme.token as Token);
      expectShape(door, 429, res);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    }
  });
});

describe('maintenance mode', () => {
  let t: TestService;
  let acme: ApiClient;
  let other: ApiClient;
  beforeAll(async () => {
    t = await startTestService();
    acme = await t.environment('upkeep');
    other = await t.environment('bystander');
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('an environment in maintenance answers 503 with Retry-After in each door’s shape; others go on; /healthz says so', async () => {
    const endsAt = new Date(Date.now() + 120_000);
    await t.system.admin.maintenance.on({ environment: 'upkeep', message: 'database upgrade', endsAt });
    // every process reads the maintenance table at most every 2 s
    await new Promise((r) => setTimeout(r, 2_200));
    for (const door of DOORS) {
      const res = await read(door, t.service.port, 'upkeep.localhost', acme.token as Token);
      expectShape(door, 503, res);
      const retry = Number(res.headers['retry-after']);
      expect(retry).toBeGreaterThan(100);
      expect(retry).toBeLessThanOrEqual(120);
      expect(res.text).toContain('database upgrade');
    }
    expect((await read('v2', t.service.port, 'bystander.localhost', other.token as Token)).status).toBe(200);
    const health = await send(t.service.port, 'GET', '/healthz', { host: 'localhost' });
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({ status: 'maintenance', maintenance: [{ environment: 'upkeep' }] });

    await t.system.admin.maintenance.off({ environment: 'upkeep' });
    await t.system.admin.maintenance.on({});
    await new Promise((r) => setTimeout(r, 2_200));
    // for every environment, and without an end time: no Retry-After
    const all = await read('v3', t.service.port, 'bystander.localhost', other.token as Token);
    expectShape('v3', 503, all);
    expect(all.headers['retry-after']).toBeUndefined();

    await t.system.admin.maintenance.off({});
    await new Promise((r) => setTimeout(r, 2_200));
    expect((await read('v3', t.service.port, 'upkeep.localhost', acme.token as Token)).status).toBe(200);
    expect((await send(t.service.port, 'GET', '/healthz', { host: 'localhost' })).body).toEqual({ status: 'ok' });
  }, 30_000);
});

describe('maintenance mode and webhooks', () => {
  let t: TestService;
  let env: ApiClient;
  let receiver: Receiver;
  beforeAll(async () => {
    t = await startTestService({
      runWorker: true,
      webhooks: { retryBaseMs: 50, retryMaxDelayMs: 200, timeoutMs: 1_000, pollIntervalMs: 25 },
    });
    env = await t.environment('queued');
    receiver = await new Receiver().start();
  });
  afterAll(async () => {
    await receiver?.stop();
    await t?.stop();
  });

  it('webhook deliveries of an environment in maintenance queue (pending, no attempt) and go out after it', async () => {
    const sub = await env.v3('POST', '/webhook.create', { url: receiver.url, events: ['organization.created'] });
    expect(sub.status).toBe(201);
    // maintenance on, seen by every process; then a change through the domain (the doors are closed)
    await t.system.admin.maintenance.on({ environment: 'queued' });
    await sleep(2_200);
    expect((await env.v2('POST', '/crm/organization', { name: 'Refused' })).status).toBe(503);
    const principal = await t.system.auth.authenticate({
      environment: 'queued',
      key: env.token?.key ?? '',
      secret: env.token?.secret ?? '',
    });
    const user = createCaller({ prisma: t.service.database.prisma, principal, clock: systemClock });
    await user.crm.organization.create({ data: { name: 'Queued event' } });
    await sleep(1_500);
    expect(receiver.received).toHaveLength(0);
    const [pending] = await t.db.query<{ status: string; attempts: number }>(
      `SELECT status, attempts FROM webhook_delivery ORDER BY created_at DESC LIMIT 1`,
    );
    expect(pending).toMatchObject({ status: 'pending', attempts: 0 });
    await t.system.admin.maintenance.off({ environment: 'queued' });
    await waitFor(() => receiver.received.length > 0, 15_000);
    // the attempt is recorded once the receiver has answered: wait for the record, not only the receipt
    const status = async () =>
      (await t.db.query<{ status: string }>(`SELECT status FROM webhook_delivery ORDER BY created_at DESC LIMIT 1`))[0]?.status;
    let after = await status();
    for (let i = 0; i < 50 && after === 'pending'; i += 1) {
      await sleep(100);
      after = await status();
    }
    expect(after).toBe('succeeded');
  }, 40_000);
});
