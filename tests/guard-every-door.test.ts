import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appRouter, declaredRightOf, type Rights } from '@bo/domain';
import { FormClient } from './support/browser-session.js';
import { type HttpResponse, send } from './support/http.js';
import { startTestService, type TestService, type Token } from './support/service.js';

/**
 * One guard for every door: the same table of guard cases runs through v2, v3, /trpc and the
 * settings pages, and each door answers in its own shape (the v2 envelope, problem details,
 * tRPC's error, an HTML page) with its own status. The guard's order: transport security,
 * environment, credentials, rate limit, maintenance, then the procedure's declared right,
 * before any body is read.
 */
type Door = 'v2' | 'v3' | 'trpc' | 'settings';
const DOORS: Door[] = ['v2', 'v3', 'trpc', 'settings'];
const PASSWORD = 'correct horse battery staple';
const SESSION_COOKIE = '__Host-bo_session';
/** the rate limit of the service with a trusted proxy: small, so that a case spends it quickly */
const PER_MINUTE = 3;

/** What a request carries: a token for the API doors, a browser session for the settings pages. */
interface Credentials {
  token: Token | null;
  session: string | null;
}

interface Target {
  port: number;
  host: string;
  tls?: boolean;
  headers?: Record<string, string>;
}

function credentialHeaders(door: Door, who: Credentials): Record<string, string> {
  if (door === 'settings') return who.session ? { cookie: `${SESSION_COOKIE}=${who.session}` } : {};
  if (!who.token) return {};
  return door === 'v2'
    ? { 'authentication-key': who.token.key, 'authentication-secret': who.token.secret }
    : { authorization: `Bearer ${who.token.key}:${who.token.secret}` };
}

/** A read through each door: organizations (crm read), or the settings' token list (settings read). */
function read(door: Door, target: Target, who: Credentials): Promise<HttpResponse> {
  const path = {
    v2: '/api/v2/crm/organization?limit=1',
    v3: '/api/v3/organization.list',
    trpc: `/trpc/crm.organization.list?input=${encodeURIComponent(JSON.stringify({ limit: 1 }))}`,
    settings: '/settings/api',
  }[door];
  return send(target.port, 'GET', path, {
    host: target.host,
    tls: target.tls,
    headers: { ...credentialHeaders(door, who), ...target.headers },
  });
}

/**
 * A write whose body the door cannot use: `body` for the API doors (not an object, or not JSON),
 * and for the settings pages a token form larger than a form may be.
 */
function badWrite(door: Door, target: Target, who: Credentials, body: string): Promise<HttpResponse> {
  const path = {
    v2: '/api/v2/crm/organization',
    v3: '/api/v3/webhook.create',
    trpc: '/trpc/crm.organization.create',
    settings: '/settings/api/tokens',
  }[door];
  const form = door === 'settings';
  return send(target.port, 'POST', path, {
    host: target.host,
    tls: target.tls,
    body: form ? `label=${'x'.repeat(20_000)}` : body,
    headers: {
      'content-type': form ? 'application/x-www-form-urlencoded' : 'application/json',
      ...credentialHeaders(door, who),
      ...target.headers,
    },
  });
}

/** The door's own shape of a refusal with this status. */
function expectRefusal(door: Door, status: number, res: HttpResponse, opts: { tls?: boolean } = {}) {
  expect(res.status, res.text.slice(0, 300)).toBe(status);
  if (door === 'v2') {
    if (opts.tls) {
      // the contract: text/plain saying TLS is required
      expect(res.headers['content-type']).toContain('text/plain');
      expect(res.text).toMatch(/TLS is required/);
    } else {
      expect(res.body).toEqual({ data: null, debug: null, errors: [expect.any(String)] });
    }
  }
  if (door === 'v3') {
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.body).toMatchObject({ type: `/errors/${status}`, status, title: expect.any(String), detail: expect.any(String) });
  }
  if (door === 'trpc') {
    expect(res.body).toMatchObject({ error: { data: { httpStatus: status } } });
  }
  if (door === 'settings') {
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.text).toContain(`<h1>Error ${status}</h1>`);
  }
  if (opts.tls && door !== 'v2') expect(res.text).toMatch(/TLS is required/);
  expect(res.text).not.toMatch(/\bat [\w.<>]+ \(|\/work\/|node_modules|\.ts:\d+/);
}

/** A request the guard let through. */
function expectServed(door: Door, res: HttpResponse) {
  expect(res.status, res.text.slice(0, 300)).toBe(200);
  if (door === 'settings') expect(res.text).toContain('<h1>API tokens</h1>');
}

/** The settings pages' answer to a visitor without a (valid) session: the sign-in form, not the tokens. */
function expectSignIn(res: HttpResponse) {
  expect(res.status).toBe(200);
  expect(res.text).toContain('Sign in to the API settings');
  expect(res.text).not.toContain('<h1>API tokens</h1>');
}

/** A user with rights, a token, and a signed-in browser session of the same user. */
async function member(t: TestService, environment: string, email: string, rights: Rights): Promise<Credentials> {
  const client = await t.user(environment, email, rights);
  await t.system.auth.password.set({ environment, email, password: PASSWORD });
  const browser = new FormClient(t.service.port, `${environment}.localhost`);
  const login = await browser.login(email, PASSWORD);
  expect(login.status).toBe(303);
  return { token: client.token, session: browser.cookies.get(SESSION_COOKIE) ?? null };
}

let plain: TestService;
let proxied: TestService;
const who: Record<string, Credentials> = {};

beforeAll(async () => {
  // plain HTTP beside HTTPS, no trusted proxy; and one behind a trusted proxy, with a small rate limit
  [plain, proxied] = await Promise.all([
    startTestService({ httpPort: true }),
    startTestService({ httpPort: true, trustProxy: true, rateLimitPerMinute: PER_MINUTE }),
  ]);
  for (const name of ['acme', 'globex', 'upkeep']) await plain.system.admin.environment.create({ name });
  await proxied.system.admin.environment.create({ name: 'proxied' });
  const all: Rights = { crm: 'write', webhooks: 'write', settings: 'write' };
  who.acme = await member(plain, 'acme', 'admin@acme.test', all);
  who.globex = await member(plain, 'globex', 'admin@globex.test', all);
  who.upkeep = await member(plain, 'upkeep', 'admin@upkeep.test', all);
  who.outsider = await member(plain, 'acme', 'outsider@acme.test', { projects: 'read' });
  who.reader = await member(plain, 'acme', 'reader@acme.test', { crm: 'read', webhooks: 'read', settings: 'read' });
  // one budget per token across the doors: each door's case behind the proxy has its own member
  who.behindProxy = await member(proxied, 'proxied', 'admin@proxied.test', all);
  for (const door of DOORS) {
    who[`limited-${door}`] = await member(proxied, 'proxied', `limited-${door}@proxied.test`, all);
    who[`proxy-${door}`] = await member(proxied, 'proxied', `proxy-${door}@proxied.test`, all);
  }
});
afterAll(async () => {
  await Promise.all([plain?.stop(), proxied?.stop()]);
});

const acme = (): Target => ({ port: plain.service.port, host: 'acme.localhost' });

describe('one guard for every door: the same cases through v2, v3, /trpc and the settings pages', () => {
  it.each(DOORS)('%s: no credentials: 401 (the settings pages: their sign-in form)', async (door) => {
    const res = await read(door, acme(), { token: null, session: null });
    if (door === 'settings') expectSignIn(res);
    else expectRefusal(door, 401, res);
  });

  it.each(DOORS)('%s: a wrong secret: 401 (the settings pages: a forged session is no session)', async (door) => {
    const token = who.acme?.token as Token;
    const res = await read(door, acme(), { token: { key: token.key, secret: 'not-the-secret' }, session: 'forged-session' });
    if (door === 'settings') expectSignIn(res);
    else expectRefusal(door, 401, res);
  });

  it.each(DOORS)("%s: another environment's token or session: 401 (the settings pages: the sign-in form)", async (door) => {
    const res = await read(door, acme(), who.globex as Credentials);
    if (door === 'settings') expectSignIn(res);
    else expectRefusal(door, 401, res);
    expect(res.text).not.toContain('globex');
  });

  it.each(DOORS)('%s: a host that names no environment: 404, the same with or without credentials', async (door) => {
    const target = { port: plain.service.port, host: 'nosuch.localhost' };
    const withCredentials = await read(door, target, who.acme as Credentials);
    expectRefusal(door, 404, withCredentials);
    const without = await read(door, target, { token: null, session: null });
    expectRefusal(door, 404, without);
  });

  it.each(DOORS)('%s: a missing right: 403', async (door) => {
    expectRefusal(door, 403, await read(door, acme(), who.outsider as Credentials));
    expectServed(door, await read(door, acme(), who.acme as Credentials));
  });

  it.each(DOORS)('%s: past the rate limit: 429 with Retry-After', async (door) => {
    const target = { port: proxied.service.port, host: 'proxied.localhost' };
    const mine = who[`limited-${door}`] as Credentials;
    for (let i = 0; i < PER_MINUTE; i += 1) expectServed(door, await read(door, target, mine));
    const over = await read(door, target, mine);
    expectRefusal(door, 429, over);
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('every door: maintenance of the environment: 503 with Retry-After; other environments go on', async () => {
    await plain.system.admin.maintenance.on({
      environment: 'upkeep',
      message: 'database upgrade',
      endsAt: new Date(Date.now() + 120_000),
    });
    try {
      // every process reads the maintenance table at most every 2 s
      await new Promise((r) => setTimeout(r, 2_200));
      for (const door of DOORS) {
        const res = await read(door, { port: plain.service.port, host: 'upkeep.localhost' }, who.upkeep as Credentials);
        expectRefusal(door, 503, res);
        expect(res.text).toContain('database upgrade');
        expect(Number(res.headers['retry-after'])).toBeGreaterThan(100);
        expectServed(door, await read(door, acme(), who.acme as Credentials));
      }
    } finally {
      await plain.system.admin.maintenance.off({ environment: 'upkeep' });
    }
  }, 30_000);

  it.each(DOORS)('%s: plain HTTP without a trusted proxy: 403, TLS is required (good credentials or not)', async (door) => {
    const target = { port: plain.service.httpPort as number, host: 'acme.localhost', tls: false };
    expectRefusal(door, 403, await read(door, target, who.acme as Credentials), { tls: true });
    // a proxy that is not trusted cannot vouch for TLS
    const claimed = await read(door, { ...target, headers: { 'x-forwarded-proto': 'https' } }, who.acme as Credentials);
    expectRefusal(door, 403, claimed, { tls: true });
  });

  it.each(DOORS)(
    '%s: plain HTTP behind a trusted TLS-terminating proxy: served when it says https, 403 when http',
    async (door) => {
      const target = { port: proxied.service.httpPort as number, host: 'proxied.localhost', tls: false };
      const mine = who[`proxy-${door}`] as Credentials;
      expectServed(door, await read(door, { ...target, headers: { 'x-forwarded-proto': 'https' } }, mine));
      const http = await read(door, { ...target, headers: { 'x-forwarded-proto': 'http' } }, mine);
      expectRefusal(door, 403, http, { tls: true });
    },
  );

  it.each(DOORS)(
    '%s: a read-only caller writing a body the door cannot use hears 403, before anything about the body',
    async (door) => {
      for (const body of ['[1, 2]', '"text"', '{"name": ']) {
        expectRefusal(door, 403, await badWrite(door, acme(), who.reader as Credentials, body));
      }
    },
  );
});

describe('issue 26: v3 and /trpc over plain HTTP are refused as v2 is, unless a trusted proxy terminated TLS', () => {
  it('GET /api/v3/organization.list and /trpc over plain HTTP answer 403 (TLS is required); behind a trusted proxy saying https, 200', async () => {
    const direct = { port: plain.service.httpPort as number, host: 'acme.localhost', tls: false };
    for (const door of ['v3', 'trpc'] as const) {
      const res = await read(door, direct, who.acme as Credentials);
      expect(res.status).toBe(403);
      expect(res.text).toMatch(/TLS is required/);
      const behind = { port: proxied.service.httpPort as number, host: 'proxied.localhost', tls: false };
      expect(
        (await read(door, { ...behind, headers: { 'x-forwarded-proto': 'https' } }, who.behindProxy as Credentials)).status,
      ).toBe(200);
    }
    // the public v3 reference is behind TLS too, as v2's is
    const docs = await send(plain.service.httpPort as number, 'GET', '/api/v3/docs.json', { host: 'acme.localhost', tls: false });
    expect(docs.status).toBe(403);
  });
});

describe('issue 26: the right is checked before the body (403 before 400)', () => {
  it('a read-only token posting a non-object or malformed body answers 403 on v2, v3 and /trpc, and nothing is written', async () => {
    for (const door of ['v2', 'v3', 'trpc'] as const) {
      for (const body of ['[{"name": "Nope"}]', '"Nope"', '{"name": "Nope"']) {
        const res = await badWrite(door, acme(), who.reader as Credentials, body);
        expect(res.status, `${door} ${body}: ${res.text.slice(0, 200)}`).toBe(403);
      }
    }
    const [row] = await plain.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM organization WHERE name = 'Nope'`);
    expect(row?.n).toBe(0);
    // the same body from a caller with the right is the body's problem: 400
    const writer = await badWrite('v2', acme(), who.acme as Credentials, '[{"name": "Nope"}]');
    expect(writer.status).toBe(400);
  });
});

describe('rights are declared, not learned by calling', () => {
  it('every procedure of the router declares the right it needs in its meta', () => {
    const missing: string[] = [];
    const walk = (node: Record<string, unknown>, path: string[]) => {
      for (const [key, value] of Object.entries(node)) {
        if (key === '_def' || key === 'createCaller') continue;
        if (typeof value === 'function') {
          if (!declaredRightOf(value)) missing.push([...path, key].join('.'));
        } else if (value && typeof value === 'object') walk(value as Record<string, unknown>, [...path, key]);
      }
    };
    walk(appRouter as unknown as Record<string, unknown>, []);
    expect(missing).toEqual([]);
    expect(
      declaredRightOf((appRouter as unknown as { crm: { organization: { create: unknown } } }).crm.organization.create),
    ).toEqual({
      kind: 'module',
      module: 'crm',
      level: 'write',
    });
  });
});
