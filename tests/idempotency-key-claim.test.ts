import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, startTestService, type TestService } from './support/service.js';

/**
 * Issue 29, section 1: where an Idempotency-Key is claimed (packages/runtime/src/idempotency.ts).
 * A write transaction of our own carries the claim as its first statement; a write that goes
 * another way (through Prisma) claims apart before it writes; a request that writes nothing keeps
 * its answer with the key at its end. Each way, one request runs and the others get its answer.
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

const withKey = (key: string) => ({ headers: { 'idempotency-key': key } });

describe('Idempotency-Key claims', () => {
  it("a create's key is claimed in the create's own transaction: unseen until the create commits, then kept with its answer", async () => {
    const keyRows = async () =>
      (await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM idempotency_key WHERE key = 'in-tx-1'`))[0]?.n;
    // the create's INSERT waits behind this lock, its transaction open: a key claimed apart,
    // before the write, would be committed and seen meanwhile; one claimed in it is not
    const locker = new pg.Client({ connectionString: t.db.url });
    await locker.connect();
    try {
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE organization IN SHARE MODE');
      const pending = acme.v2('POST', '/crm/organization', { name: 'Claimed In The Write BV' }, withKey('in-tx-1'));
      const waiting = async () =>
        (
          await t.db.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM pg_locks WHERE relation = 'organization'::regclass AND NOT granted`,
          )
        )[0]?.n;
      for (let i = 0; i < 400 && (await waiting()) === 0; i++) await new Promise((r) => setTimeout(r, 10));
      expect(await waiting()).toBe(1);
      expect(await keyRows()).toBe(0);
      await locker.query('COMMIT');
      const first = await pending;
      expect(first.status, first.text).toBe(200);
      expect(await keyRows()).toBe(1);
      const again = await acme.v2('POST', '/crm/organization', { name: 'Claimed In The Write BV' }, withKey('in-tx-1'));
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect((again.body as { data: { id: string } }).data.id).toBe((first.body as { data: { id: string } }).data.id);
    } finally {
      await locker.end();
    }
  });

  it('a command that writes through Prisma claims apart first: 10 concurrent repeats make one webhook', async () => {
    const body = { url: 'http://127.0.0.1:9/claimed-apart', events: ['*'] };
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => acme.v3('POST', '/webhook.create', body, withKey('apart-1'))),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(201));
    expect(new Set(answers.map((a) => (a.body as { id: string }).id)).size).toBe(1);
    expect(answers.filter((a) => a.headers['idempotent-replayed'] === 'true')).toHaveLength(9);
    const hooks = await t.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM webhook_subscription WHERE url = 'http://127.0.0.1:9/claimed-apart'`,
    );
    expect(hooks[0]?.n).toBe(1);
  });

  it('a request that writes nothing keeps its answer with the key: the repeat replays it, another body is refused', async () => {
    const refused = await acme.v2('POST', '/crm/organization', { name: '' }, withKey('no-write-1'));
    expect(refused.status).toBe(400);
    expect(refused.headers['idempotent-replayed']).toBeUndefined();
    const again = await acme.v2('POST', '/crm/organization', { name: '' }, withKey('no-write-1'));
    expect(again.status).toBe(400);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(refused.body);
    // the key is held by that answer: a valid body with it is refused naming the header, and nothing is made
    const other = await acme.v2('POST', '/crm/organization', { name: 'After A Refusal BV' }, withKey('no-write-1'));
    expect(other.status).toBe(400);
    expect((other.body as { errors: string[] }).errors.join(' ')).toContain('Idempotency-Key');
    const made = await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM organization WHERE name = 'After A Refusal BV'`);
    expect(made[0]?.n).toBe(0);
  });
});
