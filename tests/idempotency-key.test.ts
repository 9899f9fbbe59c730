import { request as httpsRequest } from 'node:https';
import { expireIdempotencyKeys } from '@bo/domain/maintenance/expire-idempotency-keys';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, startTestService, type TestService } from './support/service.js';

/**
 * Issue 29, section 1: safe retries. Every v2 POST, PUT and DELETE and every v3 command accepts an
 * Idempotency-Key; the first request runs and its answer is kept for the key, per token, for 24
 * hours; a repeat gets that answer marked Idempotent-Replayed and changes nothing.
 */

let t: TestService;
let acme: ApiClient;

beforeAll(async () => {
  t = await startTestService();
  acme = await t.environment('acme');
});
afterAll(async () => {
  await t?.stop();
});

const countNamed = async (name: string) =>
  (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM organization WHERE name = $1', [name]))[0]?.n;

const withKey = (key: string) => ({ headers: { 'idempotency-key': key } });

describe('Idempotency-Key', () => {
  it('a v2 create repeated with the same key and body gets the first answer, marked Idempotent-Replayed, and makes one record', async () => {
    const first = await acme.v2('POST', '/crm/organization', { name: 'Once BV' }, withKey('create-once-1'));
    expect(first.status, first.text).toBe(200);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const again = await acme.v2('POST', '/crm/organization', { name: 'Once BV' }, withKey('create-once-1'));
    expect(again.status).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(again.headers['content-type']).toBe(first.headers['content-type']);
    expect(await countNamed('Once BV')).toBe(1);
  });

  it('20 concurrent repeats of one create make one record, and all get its answer', async () => {
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => acme.v2('POST', '/crm/organization', { name: 'Twenty At Once BV' }, withKey('twenty-1'))),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    const ids = new Set(answers.map((a) => (a.body as { data: { id: string } }).data.id));
    expect(ids.size).toBe(1);
    expect(answers.filter((a) => a.headers['idempotent-replayed'] === 'true')).toHaveLength(19);
    expect(await countNamed('Twenty At Once BV')).toBe(1);
  });

  it('a create retried after the client dropped the connection mid-request makes exactly one record', async () => {
    const body = JSON.stringify({ name: 'Dropped Connection BV' });
    // the client sends the whole request, then drops the connection once the service has taken
    // it up (its key is claimed), before it reads any answer
    const claimed = async () =>
      (await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM idempotency_key WHERE key = 'dropped-1'`))[0]?.n === 1;
    await new Promise<void>((resolve) => {
      const req = httpsRequest({
        host: '127.0.0.1',
        port: t.service.port,
        method: 'POST',
        path: '/api/v2/crm/organization',
        rejectUnauthorized: false,
        headers: {
          host: 'acme.localhost',
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          'authentication-key': acme.token?.key ?? '',
          'authentication-secret': acme.token?.secret ?? '',
          'idempotency-key': 'dropped-1',
        },
      });
      req.on('error', () => resolve());
      req.on('response', (res) => {
        res.destroy();
        resolve();
      });
      req.end(body, async () => {
        for (let i = 0; i < 200 && !(await claimed()); i++) await new Promise((r) => setTimeout(r, 5));
        req.destroy();
      });
    });
    expect(await claimed()).toBe(true);
    // the retry: it waits for the first request's answer if it still runs, and replays it
    const retry = await acme.v2('POST', '/crm/organization', { name: 'Dropped Connection BV' }, withKey('dropped-1'));
    // the first request's work was either finished and its answer kept (the retry replays it), or
    // cancelled with the client that went away and its key released (the retry runs): one record
    expect(retry.status, retry.text).toBe(200);
    expect(await countNamed('Dropped Connection BV')).toBe(1);
    const again = await acme.v2('POST', '/crm/organization', { name: 'Dropped Connection BV' }, withKey('dropped-1'));
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await countNamed('Dropped Connection BV')).toBe(1);
  });

  it('a key used again with another body is refused naming the header (v2 400, v3 422), and nothing runs', async () => {
    expect((await acme.v2('POST', '/crm/organization', { name: 'First Body BV' }, withKey('reused-1'))).status).toBe(200);
    const v2 = await acme.v2('POST', '/crm/organization', { name: 'Second Body BV' }, withKey('reused-1'));
    expect(v2.status).toBe(400);
    expect((v2.body as { errors: string[] }).errors.join(' ')).toContain('Idempotency-Key');
    expect(await countNamed('Second Body BV')).toBe(0);

    const created = await acme.v3('POST', '/employee.create', { name: 'Idem Potent' }, withKey('reused-v3'));
    expect(created.status, created.text).toBe(201);
    const replayed = await acme.v3('POST', '/employee.create', { name: 'Idem Potent' }, withKey('reused-v3'));
    expect(replayed.status).toBe(201);
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    expect((replayed.body as { id: string }).id).toBe((created.body as { id: string }).id);
    const other = await acme.v3('POST', '/employee.create', { name: 'Someone Else' }, withKey('reused-v3'));
    expect(other.status).toBe(422);
    expect(other.text).toContain('Idempotency-Key');
  });

  it('keys expire: after its 24 hours, the same key runs the request again', async () => {
    expect((await acme.v2('POST', '/crm/organization', { name: 'Expiring BV' }, withKey('expiring-1'))).status).toBe(200);
    await t.db.query(`UPDATE idempotency_key SET expires_at = now() - interval '1 second' WHERE key = 'expiring-1'`);
    const again = await acme.v2('POST', '/crm/organization', { name: 'Expiring BV' }, withKey('expiring-1'));
    expect(again.status).toBe(200);
    expect(again.headers['idempotent-replayed']).toBeUndefined();
    expect(await countNamed('Expiring BV')).toBe(2);
    const stored = await t.db.query<{ hours: number }>(
      `SELECT extract(epoch FROM expires_at - created_at) / 3600 AS hours FROM idempotency_key WHERE key = 'expiring-1'`,
    );
    expect(Number(stored[0]?.hours)).toBeCloseTo(24, 2);
    // and the hourly job deletes what has expired
    await t.db.query(`UPDATE idempotency_key SET expires_at = now() - interval '1 second' WHERE key = 'expiring-1'`);
    expect(await expireIdempotencyKeys(t.service.database.prisma)).toBeGreaterThanOrEqual(1);
    expect(await t.db.query(`SELECT 1 FROM idempotency_key WHERE key = 'expiring-1'`)).toEqual([]);
  });

  it('the same key of another token is unrelated: it runs', async () => {
    const other = await t.user('acme', 'idem-other@acme.test', { crm: 'write' });
    expect((await acme.v2('POST', '/crm/organization', { name: 'Per Token BV' }, withKey('shared-key'))).status).toBe(200);
    const theirs = await other.v2('POST', '/crm/organization', { name: 'Per Token BV' }, withKey('shared-key'));
    expect(theirs.status).toBe(200);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
    expect(await countNamed('Per Token BV')).toBe(2);
  });

  it('PUT and DELETE replay too; a key longer than 255 characters is refused', async () => {
    const created = await acme.v2('POST', '/crm/organization', { name: 'Put Twice BV' });
    const id = (created.body as { data: { id: string } }).data.id;
    const path = `/crm/organization/${encodeURIComponent(id)}`;
    expect((await acme.v2('DELETE', path, undefined, withKey('delete-1'))).status).toBe(200);
    const again = await acme.v2('DELETE', path, undefined, withKey('delete-1'));
    expect(again.status).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    const long = await acme.v2('POST', '/crm/organization', { name: 'Long Key BV' }, withKey('k'.repeat(256)));
    expect(long.status).toBe(400);
    expect(await countNamed('Long Key BV')).toBe(0);
  });
});
