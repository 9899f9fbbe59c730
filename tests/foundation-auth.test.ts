import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send } from './support/http.js';
import { type ApiClient, startTestService, type TestService } from './support/service.js';

let t: TestService;
let acme: ApiClient;
let globex: ApiClient;

beforeAll(async () => {
  t = await startTestService({ httpPort: true, trustProxy: true });
  acme = await t.environment('acme');
  globex = await t.environment('globex');
});
afterAll(() => t?.stop());

describe('authentication (contract: Authentication)', () => {
  it('v2 accepts the Authentication-Key and Authentication-Secret headers', async () => {
    const res = await acme.v2('GET', '/crm/organization');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: [], errors: null, debug: null });
  });

  it('v3 accepts Authorization: Bearer <key>:<secret> with the same token', async () => {
    const res = await acme.v3('GET', '/organization.list');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ items: [], page: 1, itemsPerPage: 30, totalItems: 0 });
  });

  it('missing credentials answer 401 in the v2 envelope', async () => {
    const res = await acme.withToken(null).v2('GET', '/crm/organization');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ data: null, errors: [expect.any(String)], debug: null });
  });

  it('a wrong secret answers 401 in v2 and as problem details in v3', async () => {
    const wrong = acme.withToken({ key: acme.token?.key ?? '', secret: 'not-the-secret' });
    expect((await wrong.v2('GET', '/crm/organization')).status).toBe(401);
    const v3 = await wrong.v3('GET', '/organization.list');
    expect(v3.status).toBe(401);
    expect(v3.headers['content-type']).toContain('application/problem+json');
    expect(v3.body).toMatchObject({ type: '/errors/401', status: 401, title: expect.any(String), detail: expect.any(String) });
  });

  it('a token of environment A sent to environment B answers 401 and reveals nothing', async () => {
    const crossed = globex.withToken(acme.token);
    const v2 = await crossed.v2('GET', '/crm/organization');
    expect(v2.status).toBe(401);
    expect(v2.text).not.toContain('acme');
    expect((await crossed.v3('GET', '/organization.list')).status).toBe(401);
  });

  it('an unknown environment answers 404 without revealing anything', async () => {
    const res = await send(t.service.port, 'GET', '/api/v2/crm/organization', { host: 'nosuch.localhost' });
    expect(res.status).toBe(404);
    const v3 = await send(t.service.port, 'GET', '/api/v3/organization.list', { host: 'nosuch.localhost' });
    expect(v3.status).toBe(404);
    // same answer with or without credentials: nothing tells whether they were checked
    const withToken = await send(t.service.port, 'GET', '/api/v2/crm/organization', {
      host: 'nosuch.localhost',
      headers: { 'authentication-key': acme.token?.key ?? '', 'authentication-secret': acme.token?.secret ?? '' },
    });
    expect(withToken.text).toBe(res.text);
  });

  it('a missing right answers 403; v3 detail says access denied', async () => {
    const noCrm = await t.user('acme', 'nocrm@acme.test', { projects: 'write' });
    expect((await noCrm.v2('GET', '/crm/organization')).status).toBe(403);
    const v3 = await noCrm.v3('GET', '/organization.list');
    expect(v3.status).toBe(403);
    expect(v3.body).toMatchObject({ status: 403, detail: 'access denied' });
  });

  it('a read right allows reads and refuses writes with 403', async () => {
    const reader = await t.user('acme', 'reader@acme.test', { crm: 'read' });
    expect((await reader.v2('GET', '/crm/organization')).status).toBe(200);
    const res = await reader.v2('POST', '/crm/organization', { name: 'Nope' });
    expect(res.status).toBe(403);
    const rows = await t.db.query(`SELECT count(*)::int AS n FROM organization WHERE name = 'Nope'`);
    expect(rows[0]?.n).toBe(0);
  });

  it('several tokens of one user are active at once, and a deleted token never works again', async () => {
    const second = await t.system.admin.token.create({ environment: 'acme', user: 'reader@acme.test' });
    const third = await t.system.admin.token.create({ environment: 'acme', user: 'reader@acme.test' });
    const a = acme.withToken(second);
    const b = acme.withToken(third);
    expect((await a.v2('GET', '/crm/organization')).status).toBe(200);
    expect((await b.v2('GET', '/crm/organization')).status).toBe(200);
    await t.system.admin.token.delete({ environment: 'acme', key: second.key });
    expect((await a.v2('GET', '/crm/organization')).status).toBe(401);
    expect((await a.v3('GET', '/organization.list')).status).toBe(401);
    expect((await b.v2('GET', '/crm/organization')).status).toBe(200);
  });

  it('the secret is stored only as a hash, and the last-used time is recorded', async () => {
    const token = await t.system.admin.token.create({ environment: 'acme', user: 'reader@acme.test' });
    const rows = await t.db.query<{ secret_hash: string; last_used_at: Date | null }>(
      'SELECT secret_hash, last_used_at FROM api_token WHERE key = $1',
      [token.key],
    );
    expect(rows[0]?.secret_hash).not.toContain(token.secret);
    expect(rows[0]?.last_used_at).toBeNull();
    await acme.withToken(token).v2('GET', '/crm/organization');
    const after = await t.db.query<{ last_used_at: Date | null }>('SELECT last_used_at FROM api_token WHERE key = $1', [
      token.key,
    ]);
    expect(after[0]?.last_used_at).toBeInstanceOf(Date);
  });
});

describe('TLS (contract: v2 is reachable only over TLS)', () => {
  it('a v2 request without TLS is refused with text/plain saying TLS is required', async () => {
    const res = await send(t.service.httpPort ?? 0, 'GET', '/api/v2/crm/organization', {
      host: 'acme.localhost',
      tls: false,
      headers: { 'authentication-key': acme.token?.key ?? '', 'authentication-secret': acme.token?.secret ?? '' },
    });
    expect(res.status).toBe(403);
    expect(res.headers['content-type']).toContain('text/plain');
    expect(res.text).toMatch(/TLS is required/);
  });

  it('behind a trusted proxy, X-Forwarded-Proto: http is refused and https is served', async () => {
    const plain = await acme.v2('GET', '/crm/organization', undefined, { headers: { 'x-forwarded-proto': 'http' } });
    expect(plain.status).toBe(403);
    expect(plain.text).toMatch(/TLS is required/);
    const secure = await acme.v2('GET', '/crm/organization', undefined, { headers: { 'x-forwarded-proto': 'https' } });
    expect(secure.status).toBe(200);
  });

  it('GET /healthz answers 200 without credentials when the database answers', async () => {
    const res = await send(t.service.port, 'GET', '/healthz', { host: 'localhost' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
  });
});

describe('no stale credentials: a change made by another process counts at the next request', () => {
  it('a token deleted by another process (here: straight in the database) is refused at the next request', async () => {
    const token = await t.system.admin.token.create({ environment: 'acme', user: 'reader@acme.test' });
    const client = acme.withToken(token);
    expect((await client.v2('GET', '/crm/organization')).status).toBe(200);
    await t.db.query('UPDATE api_token SET deactivated_at = now() WHERE key = $1', [token.key]);
    expect((await client.v2('GET', '/crm/organization')).status).toBe(401);
    expect((await client.v3('GET', '/organization.list')).status).toBe(401);
  });

  it('rights taken from a user by another process count at the next request (the parsed rights are not kept past their row)', async () => {
    const client = await t.user('acme', 'narrowed@acme.test', { crm: 'read' });
    expect((await client.v2('GET', '/crm/organization')).status).toBe(200);
    expect((await client.v2('GET', '/crm/organization')).status).toBe(200);
    await t.db.query(`UPDATE user_account SET rights = '{}'::jsonb WHERE email = 'narrowed@acme.test'`);
    expect((await client.v2('GET', '/crm/organization')).status).toBe(403);
    expect((await client.v3('GET', '/organization.list')).status).toBe(403);
  });

  it('a user deactivated by another process loses its tokens at the next request', async () => {
    const client = await t.user('acme', 'leaving@acme.test', { crm: 'read' });
    expect((await client.v2('GET', '/crm/organization')).status).toBe(200);
    await t.db.query(`UPDATE user_account SET is_active = false WHERE email = 'leaving@acme.test'`);
    expect((await client.v2('GET', '/crm/organization')).status).toBe(401);
  });
});
