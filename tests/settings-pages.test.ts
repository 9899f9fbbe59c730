import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FormClient } from './support/browser-session.js';
import { type ApiClient, startTestService, type TestService } from './support/service.js';
import { getBytes, PDF, sendRaw } from './support/storage.js';

type Envelope<T = Record<string, unknown>> = { data: T; errors: string[] | null; debug: unknown };

const here = path.dirname(fileURLToPath(import.meta.url));
const PASSWORD = 'correct horse battery staple';
const FAILURES_PER_MINUTE = 6;

let t: TestService;
let acme: ApiClient;
let adminEmail: string;
let port: number;
let documentId: string;
let adminApi: ApiClient;

const browser = (host = 'acme.localhost') => new FormClient(port, host);
const count = async (sql: string, params: unknown[] = []) =>
  Number(((await t.db.query<{ n: string }>(sql, params))[0] as { n: string }).n);

beforeAll(async () => {
  t = await startTestService({ limits: { authFailuresPerMinute: FAILURES_PER_MINUTE } });
  port = t.service.port;
  acme = await t.environment('acme');
  adminEmail = 'admin@acme.test';
  adminApi = await t.user('acme', adminEmail, { settings: 'write', documents: 'write' });
  await t.user('acme', 'viewer@acme.test', { documents: 'read' });
  await t.environment('globex');
  await t.user('globex', 'admin@globex.test', { settings: 'write', documents: 'read' });
  await t.system.auth.password.set({ environment: 'acme', email: adminEmail, password: PASSWORD });
  await t.system.auth.password.set({ environment: 'acme', email: 'viewer@acme.test', password: PASSWORD });
  await t.system.auth.password.set({ environment: 'globex', email: 'admin@globex.test', password: PASSWORD });
  // a document to download through its download_url
  const envId = ((await t.db.query<{ id: string }>(`SELECT id FROM environment WHERE name = 'acme'`))[0] as { id: string }).id;
  const personId = `person:${randomBytes(8).toString('hex')}`;
  await t.db.query(`INSERT INTO person (id, environment_id, family_name, updated_at) VALUES ($1, $2, 'Jansen', now())`, [
    personId,
    envId,
  ]);
  const up = await sendRaw(acme, 'POST', '/storage/uploadstream?file_name=offer.pdf', PDF, {
    headers: { 'content-type': 'application/pdf' },
  });
  const queue = (up.body as Envelope<{ upload_queue_id: string }>).data.upload_queue_id;
  const doc = await acme.v2('POST', '/documents/document', {
    title: 'Offer',
    upload_queue_id: queue,
    linked_to: { person_id: personId },
  });
  documentId = (doc.body as Envelope<{ id: string }>).data.id;
});
afterAll(() => t?.stop());

describe('settings: login', () => {
  it('GET /settings/api without a session is the login form: labelled fields, a CSRF token, no script', async () => {
    const b = browser();
    const res = await b.get('/settings/api');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.text).toContain('<label for="email">E-mail</label>');
    expect(res.text).toContain('<input id="email" name="email" type="email"');
    expect(res.text).toContain('<label for="password">Password</label>');
    expect(res.text).not.toMatch(/<script/i);
    expect(FormClient.hidden(res.text, 'csrf').length).toBeGreaterThan(20);
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('passwords are stored as Argon2id hashes (memory-hard), never in the clear', async () => {
    const [row] = await t.db.query<{ password_hash: string }>('SELECT password_hash FROM user_account WHERE email = $1', [
      adminEmail,
    ]);
    expect(row?.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(row?.password_hash).not.toContain(PASSWORD);
  });

  it('a login with the right password opens a session whose cookie is HttpOnly, Secure and SameSite=Strict', async () => {
    const b = browser();
    const res = await b.login(adminEmail, PASSWORD);
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/settings/api');
    const cookie = ([] as string[]).concat(res.headers['set-cookie'] ?? []).find((c) => c.startsWith('__Host-bo_session='));
    expect(cookie).toMatch(/; Path=\/; Max-Age=28800; HttpOnly; Secure; SameSite=Strict$/);
    const page = await b.get('/settings/api');
    expect(page.status).toBe(200);
    expect(page.text).toContain('<h1>API tokens</h1>');
    expect(page.text).toContain(`Signed in as ${adminEmail}`);
  });

  it('a login with a wrong password is refused (401) and opens no session', async () => {
    const before = await count('SELECT count(*) AS n FROM web_session');
    const b = browser();
    const res = await b.login(adminEmail, 'wrong password!!');
    expect(res.status).toBe(401);
    expect(res.text).toContain('Wrong e-mail or password.');
    expect(b.cookies.has('__Host-bo_session')).toBe(false);
    const unknown = await browser().login('nobody@acme.test', PASSWORD);
    expect(unknown.status).toBe(401);
    expect(await count('SELECT count(*) AS n FROM web_session')).toBe(before);
  });

  it('a login form without its CSRF token (or with another) is refused (403) and opens no session', async () => {
    const before = await count('SELECT count(*) AS n FROM web_session');
    const b = browser();
    await b.get('/settings/api');
    const none = await b.post('/settings/api/login', { email: adminEmail, password: PASSWORD });
    expect(none.status).toBe(403);
    const forged = await b.post('/settings/api/login', { csrf: 'forged', email: adminEmail, password: PASSWORD });
    expect(forged.status).toBe(403);
    expect(await count('SELECT count(*) AS n FROM web_session')).toBe(before);
  });

  it('a one-time link from the CLI signs in once; the second use is refused', async () => {
    const link = await t.system.auth.loginLink.create({ environment: 'acme', email: adminEmail });
    const b = browser();
    const form = await b.get(`/settings/api/link?token=${encodeURIComponent(link.secret)}`);
    expect(form.status).toBe(200);
    expect(form.headers['referrer-policy']).toBe('no-referrer');
    const first = await b.post('/settings/api/link', { token: link.secret });
    expect(first.status).toBe(303);
    expect((await b.get('/settings/api')).text).toContain('<h1>API tokens</h1>');
    const again = await browser().post('/settings/api/link', { token: link.secret });
    expect(again.status).toBe(401);
  });

  it('the admin CLI sets a password read from standard input and prints a one-time link', async () => {
    const cli = path.resolve(here, '../packages/domain/src/cli/admin.ts');
    const run = (args: string[], input?: string) =>
      new Promise<{ code: number; out: string }>((resolve) => {
        const child = execFile(
          process.execPath,
          ['--import', 'tsx', cli, ...args],
          { env: { ...process.env, DATABASE_URL: t.db.url } },
          (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, out: stdout + stderr }),
        );
        child.stdin?.end(input ?? '');
      });
    const set = await run(['password', 'set', '--environment', 'acme', '--email', 'viewer@acme.test'], 'a new long password\n');
    expect(set.code, set.out).toBe(0);
    expect((await browser().login('viewer@acme.test', 'a new long password')).status).toBe(303);
    const link = await run([
      'login-link',
      'create',
      '--environment',
      'acme',
      '--email',
      adminEmail,
      '--base-url',
      'https://acme.example.com',
    ]);
    expect(link.code, link.out).toBe(0);
    expect(link.out).toMatch(/^https:\/\/acme\.example\.com\/settings\/api\/link\?token=[\w-]{40,}$/m);
  }, 60_000);
});

describe('settings: tokens', () => {
  it('lists the tokens with user, created, last used and active, never a secret', async () => {
    await acme.v2('GET', '/documents/documenttype');
    const b = browser();
    await b.login(adminEmail, PASSWORD);
    const page = await b.get('/settings/api');
    expect(page.text).toContain('<caption>Tokens of this environment');
    expect(page.text).toContain('<th scope="col">User</th>');
    expect(page.text).toContain('<th scope="col">Last used</th>');
    expect(page.text).toContain(acme.token?.key as string);
    expect(page.text).not.toContain(acme.token?.secret as string);
    expect(page.text).toContain('Active');
    // globex's tokens are not acme's to see
    const globexKeys = await t.db.query<{ key: string }>(
      `SELECT t.key FROM api_token t JOIN environment e ON e.id = t.environment_id WHERE e.name = 'globex'`,
    );
    for (const k of globexKeys) expect(page.text).not.toContain(k.key);
  });

  it('creates a token (the secret shown once) that works on v2; deleting it deactivates it for good', async () => {
    const b = browser();
    await b.login(adminEmail, PASSWORD);
    const page = await b.get('/settings/api');
    const csrf = FormClient.hidden(page.text, 'csrf');
    const userId = /<option value="([^"]+)">viewer@acme\.test<\/option>/.exec(page.text)?.[1] as string;
    const created = await b.post('/settings/api/tokens', { csrf, user_id: userId, label: 'integration' });
    expect(created.status).toBe(200);
    const key = /id="new-key">([^<]+)</.exec(created.text)?.[1] as string;
    const secret = /id="new-secret">([^<]+)</.exec(created.text)?.[1] as string;
    expect(key).toMatch(/^[0-9a-f]{32}$/);
    const api = acme.withToken({ key, secret });
    expect((await api.v2('GET', '/documents/documenttype')).status).toBe(200);
    // shown once: the list has the key, never the secret
    const later = await b.get('/settings/api');
    expect(later.text).toContain(key);
    expect(later.text).not.toContain(secret);
    const tokenId = ((await t.db.query<{ id: string }>('SELECT id FROM api_token WHERE key = $1', [key]))[0] as { id: string })
      .id;
    const del = await b.post(`/settings/api/tokens/${encodeURIComponent(tokenId)}/delete`, { csrf });
    expect(del.status).toBe(303);
    expect((await api.v2('GET', '/documents/documenttype')).status).toBe(401);
    const after = await b.get('/settings/api');
    expect(after.text).toMatch(new RegExp(`${key}</code><br>integration</td>[\\s\\S]*?<td>Deleted</td>`));
  });

  it('forms without their CSRF token change nothing (403)', async () => {
    const b = browser();
    await b.login(adminEmail, PASSWORD);
    const before = await count('SELECT count(*) AS n FROM api_token');
    const users = await t.db.query<{ id: string }>(`SELECT id FROM user_account WHERE email = 'viewer@acme.test'`);
    const res = await b.post('/settings/api/tokens', { user_id: (users[0] as { id: string }).id });
    expect(res.status).toBe(403);
    const del = await b.post(`/settings/api/tokens/${encodeURIComponent('token:x')}/delete`, { csrf: 'nope' });
    expect(del.status).toBe(403);
    const out = await b.post('/settings/api/logout', {});
    expect(out.status).toBe(403);
    expect(await count('SELECT count(*) AS n FROM api_token')).toBe(before);
    expect((await b.get('/settings/api')).text).toContain('<h1>API tokens</h1>');
  });

  it('a user without the settings right sees no tokens (403)', async () => {
    const b = browser();
    expect((await b.login('viewer@acme.test', 'a new long password')).status).toBe(303);
    const page = await b.get('/settings/api');
    expect(page.status).toBe(403);
    expect(page.text).toContain('settings right');
    expect(page.text).not.toContain(acme.token?.key as string);
  });

  it('a session never works on another environment', async () => {
    const b = browser();
    await b.login(adminEmail, PASSWORD);
    const other = new FormClient(port, 'globex.localhost');
    for (const [k, v] of b.cookies) other.cookies.set(k, v);
    const page = await other.get('/settings/api');
    expect(page.text).toContain('Sign in to the API settings');
  });
});

describe('settings: download_url with the browser session', () => {
  const url = () => `/web/download/document/${encodeURIComponent(documentId)}`;

  it('the session downloads a document through its download_url; without one it is 401, with a token 403', async () => {
    const b = browser();
    await b.login(adminEmail, PASSWORD);
    const res = await b.get(url());
    expect(res.status).toBe(200);
    expect(res.text).toBe(PDF.toString());
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="offer.pdf"/);
    expect((await browser().get(url())).status).toBe(401);
    const withToken = await getBytes(acme, `/../../web/download/document/${encodeURIComponent(documentId)}`);
    expect([403, 404]).toContain(withToken.status);
    const tokenOnUrl = await b.get(url(), {
      'authentication-key': acme.token?.key as string,
      'authentication-secret': acme.token?.secret as string,
    });
    expect(tokenOnUrl.status).toBe(403);
  });

  it("a finished upload's download_url works for its own user's session only", async () => {
    const bytes = randomBytes(1000);
    const up = await sendRaw(adminApi, 'POST', '/storage/uploadstream?file_name=data.bin', bytes);
    const status = (up.body as Envelope<{ download_url: string }>).data;
    const b = browser();
    await b.login(adminEmail, PASSWORD);
    const res = await b.get(status.download_url);
    expect(res.status).toBe(200);
    expect(Number(res.headers['content-length'])).toBe(bytes.length);
    const viewer = browser();
    await viewer.login('viewer@acme.test', 'a new long password');
    expect((await viewer.get(status.download_url)).status).toBe(404);
  });

  it('an expired session is refused (401)', async () => {
    const b = browser();
    await b.login(adminEmail, PASSWORD);
    expect((await b.get(url())).status).toBe(200);
    await t.db.query(
      `UPDATE web_session SET expires_at = now() - interval '1 second' WHERE id = (SELECT id FROM web_session ORDER BY created_at DESC LIMIT 1)`,
    );
    expect((await b.get(url())).status).toBe(401);
  });

  it("another environment's session is refused (401)", async () => {
    const g = new FormClient(port, 'globex.localhost');
    expect((await g.login('admin@globex.test', PASSWORD)).status).toBe(303);
    const onAcme = browser();
    for (const [k, v] of g.cookies) onAcme.cookies.set(k, v);
    expect((await onAcme.get(url())).status).toBe(401);
  });

  it('logging out ends every session of the user, in every browser', async () => {
    const one = browser();
    const two = browser();
    await one.login(adminEmail, PASSWORD);
    await two.login(adminEmail, PASSWORD);
    expect((await two.get(url())).status).toBe(200);
    const page = await one.get('/settings/api');
    const out = await one.post('/settings/api/logout', { csrf: FormClient.hidden(page.text, 'csrf') });
    expect(out.status).toBe(303);
    expect((await two.get(url())).status).toBe(401);
    expect((await two.get('/settings/api')).text).toContain('Sign in to the API settings');
    expect((await one.get('/settings/api')).text).toContain('Sign in to the API settings');
  });
});

describe('settings: guards', () => {
  it('maintenance closes the settings pages and download_url as every door (503 with Retry-After)', async () => {
    const b = browser();
    await b.login(adminEmail, PASSWORD);
    await t.system.admin.maintenance.on({
      environment: 'acme',
      message: 'database upgrade',
      endsAt: new Date(Date.now() + 120_000),
    });
    try {
      // every process reads the maintenance table at most every 2 s
      await new Promise((r) => setTimeout(r, 2_200));
      for (const res of [
        await b.get('/settings/api'),
        await b.get(`/web/download/document/${encodeURIComponent(documentId)}`),
        await browser().post('/settings/api/login', { csrf: 'x', email: adminEmail, password: PASSWORD }),
      ]) {
        expect(res.status).toBe(503);
        expect(Number(res.headers['retry-after'])).toBeGreaterThan(100);
        expect(res.text).toContain('database upgrade');
      }
      expect((await new FormClient(port, 'globex.localhost').get('/settings/api')).status).toBe(200);
    } finally {
      await t.system.admin.maintenance.off({ environment: 'acme' });
      await new Promise((r) => setTimeout(r, 2_200));
    }
    expect((await b.get('/settings/api')).status).toBe(200);
  }, 20_000);

  it('a NUL byte in a form or a download address is a 4xx, never a 500', async () => {
    const b = browser();
    const page = await b.get('/settings/api');
    const res = await b.post('/settings/api/login', {
      csrf: FormClient.hidden(page.text, 'csrf'),
      email: 'admin\u0000@acme.test',
      password: 'x\u0000y',
    });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    const signedIn = browser();
    await signedIn.login(adminEmail, PASSWORD);
    const dl = await signedIn.get('/web/download/document/%00');
    expect(dl.status).toBeGreaterThanOrEqual(400);
    expect(dl.status).toBeLessThan(500);
    const form = await signedIn.get('/settings/api');
    const del = await signedIn.post('/settings/api/tokens/%00/delete', { csrf: FormClient.hidden(form.text, 'csrf') });
    expect(del.status).toBeGreaterThanOrEqual(400);
    expect(del.status).toBeLessThan(500);
    const create = await signedIn.post('/settings/api/tokens', {
      csrf: FormClient.hidden(form.text, 'csrf'),
      user_id: 'user\u0000',
      label: 'x\u0000',
    });
    expect(create.status).toBeGreaterThanOrEqual(400);
    expect(create.status).toBeLessThan(500);
  });

  it('an oversized form is refused (413) without a stack or a path', async () => {
    const b = browser();
    const page = await b.get('/settings/api');
    const res = await b.post('/settings/api/login', {
      csrf: FormClient.hidden(page.text, 'csrf'),
      email: 'x'.repeat(40_000),
      password: 'y',
    });
    expect(res.status).toBe(413);
    expect(res.text).not.toMatch(/node_modules|at \w+ \(|\/work\//);
  });

  it('failed logins are throttled (429) by the doors’ failed-authentication limit', async () => {
    let throttled = false;
    for (let i = 0; i < FAILURES_PER_MINUTE + 2; i += 1) {
      const b = browser();
      const page = await b.get('/settings/api');
      const res =
        page.status === 429
          ? page
          : await b.post('/settings/api/login', {
              csrf: FormClient.hidden(page.text, 'csrf'),
              email: adminEmail,
              password: 'wrong password!!',
            });
      if (res.status === 429) {
        throttled = true;
        expect(res.headers['retry-after']).toBeDefined();
        expect(res.text).toContain('too many failed authentications');
        break;
      }
      expect(res.status).toBe(401);
    }
    expect(throttled).toBe(true);
    // nothing gets through from this address meanwhile: not the login page, not the right password
    expect((await browser().get('/settings/api')).status).toBe(429);
    const res = await browser().post('/settings/api/login', { csrf: 'x', email: adminEmail, password: PASSWORD });
    expect(res.status).toBe(429);
  });
});

describe('settings: the rate limit', () => {
  let limited: TestService;
  afterAll(() => limited?.stop());

  it('a session has the per-minute request budget of the doors (429 with Retry-After past it)', async () => {
    limited = await startTestService({ rateLimitPerMinute: 5 });
    // another name than the first service's: environment ids are remembered per process by name
    await limited.environment('busy');
    await limited.user('busy', adminEmail, { settings: 'write' });
    await limited.system.auth.password.set({ environment: 'busy', email: adminEmail, password: PASSWORD });
    const b = new FormClient(limited.service.port, 'busy.localhost');
    expect((await b.login(adminEmail, PASSWORD)).status).toBe(303);
    const statuses: number[] = [];
    let last: Awaited<ReturnType<FormClient['get']>> | null = null;
    for (let i = 0; i < 8; i += 1) {
      last = await b.get('/settings/api');
      statuses.push(last.status);
    }
    expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
    expect(statuses.at(-1)).toBe(429);
    expect(Number(last?.headers['retry-after'])).toBeGreaterThan(0);
  }, 30_000);
});
