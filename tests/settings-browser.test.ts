import { mkdirSync, readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, startTestService, type TestService } from './support/service.js';
import { PDF, sendRaw } from './support/storage.js';

/**
 * The API settings in a real headless Chromium (Debian's /usr/bin/chromium,
 * driven by playwright-core), with JavaScript switched off: the pages must work
 * as plain HTML forms. Screenshots are kept under tests/artifacts/ (git-ignored).
 */
type Envelope<T = Record<string, unknown>> = { data: T; errors: string[] | null; debug: unknown };

const here = path.dirname(fileURLToPath(import.meta.url));
const ARTIFACTS = path.join(here, 'artifacts', 'settings-browser');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const PASSWORD = 'correct horse battery staple';
const EMAIL = 'admin@acme.test';

let t: TestService;
let acme: ApiClient;
let browser: Browser;
let documentId: string;
let downloadUrl: string;

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  t = await startTestService();
  acme = await t.environment('acme');
  await t.user('acme', EMAIL, { settings: 'write', documents: 'read' });
  await t.user('acme', 'integration@acme.test', { documents: 'read' });
  await t.system.auth.password.set({ environment: 'acme', email: EMAIL, password: PASSWORD });
  const envId = ((await t.db.query<{ id: string }>(`SELECT id FROM environment WHERE name = 'acme'`))[0] as { id: string }).id;
  const personId = `person:${randomBytes(8).toString('hex')}`;
  await t.db.query(`INSERT INTO person (id, environment_id, family_name, updated_at) VALUES ($1, $2, 'Jansen', now())`, [
    personId,
    envId,
  ]);
  const up = await sendRaw(acme, 'POST', '/storage/uploadstream?file_name=offer.pdf', PDF, {
    headers: { 'content-type': 'application/pdf' },
  });
  const doc = await acme.v2('POST', '/documents/document', {
    title: 'Offer',
    upload_queue_id: (up.body as Envelope<{ upload_queue_id: string }>).data.upload_queue_id,
    linked_to: { person_id: personId },
  });
  documentId = (doc.body as Envelope<{ id: string }>).data.id;
  const got = await acme.v2('GET', `/documents/document/${encodeURIComponent(documentId)}`);
  downloadUrl = (got.body as Envelope<{ download_url: string }>).data.download_url;
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    // *.localhost is the environment's host; the test service listens on 127.0.0.1
    args: ['--no-sandbox', '--host-resolver-rules=MAP *.localhost 127.0.0.1'],
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await t?.stop();
});

const heading = async (page: Page) => (await page.getByRole('heading', { level: 1 }).textContent())?.trim();
const shot = (page: Page, name: string) => page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });

describe('settings in a real Chromium, without JavaScript', () => {
  it('logs in with the keyboard, creates a token, uses it on v2, deletes it, sees v2 refuse it, downloads through download_url', async () => {
    const base = `https://acme.localhost:${t.service.port}`;
    const context = await browser.newContext({ ignoreHTTPSErrors: true, javaScriptEnabled: false, acceptDownloads: true });
    const page = await context.newPage();
    try {
      // the download_url needs a session: before logging in it is refused
      const refused = await page.goto(`${base}${downloadUrl}`);
      expect(refused?.status()).toBe(401);

      await page.goto(`${base}/settings/api`);
      expect(await heading(page)).toBe('Sign in to the API settings');
      await shot(page, '1-login');

      // keyboard only: Tab to the e-mail field, type, Tab to the password, Enter submits
      await page.keyboard.press('Tab');
      expect(await page.locator(':focus').getAttribute('id')).toBe('email');
      await page.keyboard.type(EMAIL);
      await page.keyboard.press('Tab');
      expect(await page.locator(':focus').getAttribute('id')).toBe('password');
      await page.keyboard.type(PASSWORD);
      await page.keyboard.press('Enter');
      // the same address before and after: wait for the signed-in page itself
      await page.getByRole('heading', { level: 1, name: 'API tokens' }).waitFor();
      expect(await heading(page)).toBe('API tokens');
      const cookies = await context.cookies();
      const session = cookies.find((c) => c.name === '__Host-bo_session');
      expect(session).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Strict' });
      await shot(page, '2-tokens');

      // create a token for the integration user (fields found by their labels)
      await page.getByLabel('User', { exact: true }).selectOption({ label: 'integration@acme.test' });
      await page.getByLabel('Label (optional)', { exact: true }).fill('browser test');
      await page.getByRole('button', { name: 'Create token' }).click();
      await page.locator('#new-secret').waitFor();
      expect(await page.getByRole('status').textContent()).toContain('shown this once');
      const key = (await page.locator('#new-key').textContent()) as string;
      const secret = (await page.locator('#new-secret').textContent()) as string;
      await shot(page, '3-token-created');

      // the new token works on v2
      const api = acme.withToken({ key, secret });
      expect((await api.v2('GET', `/documents/document/${encodeURIComponent(documentId)}`)).status).toBe(200);

      // the list shows it, never its secret
      await page.goto(`${base}/settings/api`);
      const row = page.getByRole('row').filter({ hasText: key });
      expect(await row.textContent()).toContain('integration@acme.test');
      expect(await row.textContent()).toContain('Active');
      expect(await page.content()).not.toContain(secret);

      // delete it: v2 refuses it from then on
      await row.getByRole('button', { name: `Delete token ${key} of integration@acme.test` }).click();
      await page.getByRole('row').filter({ hasText: key }).filter({ hasText: 'Deleted' }).waitFor();
      expect(await page.getByRole('row').filter({ hasText: key }).textContent()).toContain('Deleted');
      await shot(page, '4-token-deleted');
      expect((await api.v2('GET', `/documents/document/${encodeURIComponent(documentId)}`)).status).toBe(401);

      // the document's download_url works with this browser session
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.goto(`${base}${downloadUrl}`).catch(() => null), // a download is not a page
      ]);
      expect(download.suggestedFilename()).toBe('offer.pdf');
      const saved = path.join(ARTIFACTS, 'downloaded-offer.pdf');
      await download.saveAs(saved);
      expect(readFileSync(saved).equals(PDF)).toBe(true);

      // log out: the session ends, download_url is refused again
      await page.goto(`${base}/settings/api`);
      await page.getByRole('button', { name: 'Log out everywhere' }).click();
      // the same address before and after: wait for the login form itself
      await page.getByRole('heading', { level: 1, name: 'Sign in to the API settings' }).waitFor();
      expect(await heading(page)).toBe('Sign in to the API settings');
      await shot(page, '5-logged-out');
      const after = await page.goto(`${base}${downloadUrl}`);
      expect(after?.status()).toBe(401);
    } finally {
      await context.close();
    }
  }, 120_000);
});
