import { tenantSql, type TenantReader } from '@bo/db';
import { RenderPool, type RenderReservation, type RenderResult } from '@bo/domain/rendering/render-pool';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onePagePdf } from './support/storage.js';
import { post } from './support/crm.js';
import { type ApiClient, startTestService, type TestService } from './support/service.js';

/**
 * A write transaction's time limit bounds its database work and the locks it holds; work outside
 * the database it waits for (an invoice's PDF, rendered in a render process) is bounded by its own
 * limit, and the wait for a render process happens before the transaction begins. Under a loaded
 * machine a send whose render started a cold process ran past the 5 s limit and answered 503.
 */

let t: TestService;
let environmentId: string;

beforeAll(async () => {
  t = await startTestService();
  await t.environment('timed');
  const [env] = await t.db.query<{ id: string }>(`SELECT id FROM environment WHERE name = 'timed'`);
  environmentId = env?.id as string;
});
afterAll(() => t?.stop());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function transactionOf() {
  const sql = tenantSql(t.service.database.prisma, environmentId);
  const { transaction } = sql;
  if (!transaction) throw new Error('the test database offers a transaction of our own');
  return transaction;
}

const idleLimit = async (reader: TenantReader) =>
  Number(
    (
      await reader.read<{ ms: string }>(
        `SELECT setting AS ms FROM pg_settings WHERE name = 'idle_in_transaction_session_timeout' AND $1::text IS NOT NULL`,
      )
    )[0]?.ms,
  );

const markers = (title: string) =>
  t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM hour_type WHERE label = $1', [title]).then((r) => r[0]?.n);

const insertMarker = (reader: TenantReader, name: string) =>
  reader.read(`INSERT INTO hour_type (environment_id, id, label, updated_at) VALUES ($1, $2, $3, now())`, [
    `hourtype:${name}`,
    name,
  ]);

describe('a write transaction is bounded in its database time, not in the bounded work it waits for', () => {
  it('a write transaction past its time limit is refused as a statement time-out and rolled back', async () => {
    const transaction = transactionOf();
    const failure = await transaction(
      async (reader) => {
        await insertMarker(reader, 'late-marker');
        await sleep(500);
        await reader.read('SELECT $1::text AS still');
      },
      { timeoutMs: 250 },
    ).catch((err: unknown) => err);
    expect((failure as { code?: string }).code).toBe('57014');
    expect(await markers('late-marker')).toBe(0);
  });

  it('work beside the database lengthens the time limit by its own bound: the transaction that waited for it commits', async () => {
    const transaction = transactionOf();
    await transaction(
      async (reader) => {
        if (!reader.besideDatabase) throw new Error('a transaction of our own offers work beside the database');
        await insertMarker(reader, 'beside-marker');
        expect(await reader.besideDatabase(2_000, () => sleep(500).then(() => 'rendered'))).toBe('rendered');
        await reader.read('SELECT $1::text AS still');
      },
      { timeoutMs: 250 },
    );
    expect(await markers('beside-marker')).toBe(1);
  });

  it("the server's idle-in-transaction limit is lengthened by the same bound, for that transaction only", async () => {
    const transaction = transactionOf();
    let before = 0;
    let during = 0;
    await transaction(async (reader) => {
      before = await idleLimit(reader);
      await reader.besideDatabase?.(7_000, async () => {});
      during = await idleLimit(reader);
    });
    // a server has the limit (twice the statement time-out, at least 10 s); PGlite none, and keeps none
    expect(before).toBeGreaterThan(0);
    expect(during).toBe(before + 7_000);
    await transaction(async (reader) => {
      expect(await idleLimit(reader)).toBe(before);
    });
  });
});

describe('a render process is taken before the transaction that waits for its render', () => {
  const pools: RenderPool[] = [];
  afterAll(() => Promise.all(pools.map((p) => p.close())));
  const thumbnail = {
    kind: 'pdf-thumbnail' as const,
    bytes: onePagePdf(),
    size: 64,
    maxPixels: 50_000_000,
    maxPaints: 100_000,
    maxContentBytes: 64 * 1024 * 1024,
  };

  it('a reserved render process is held, ready, for the job given later; another job waits for it; given back, it serves that job', async () => {
    const pool = new RenderPool({ workers: 1 });
    pools.push(pool);
    const reserved = (await pool.reserve('a')) as RenderReservation;
    expect('run' in reserved).toBe(true);
    let other: RenderResult | null = null;
    const waiting = pool.run('b', thumbnail).then((r) => {
      other = r;
    });
    await sleep(300);
    // the one process is held by the reservation: the other job has not run
    expect(other).toBeNull();
    const mine = await reserved.run(thumbnail);
    expect(mine.ok).toBe(true);
    await waiting;
    expect(other).toMatchObject({ ok: true });
    // given back unused, it serves the next job at once
    const unused = (await pool.reserve('a')) as RenderReservation;
    unused.release();
    expect((await pool.run('b', thumbnail)).ok).toBe(true);
  });

  it('a reservation never used is given back after the render time limit', async () => {
    const pool = new RenderPool({ workers: 1, timeoutMs: 2_000 });
    pools.push(pool);
    const forgotten = (await pool.reserve('a')) as RenderReservation;
    expect('run' in forgotten).toBe(true);
    expect((await pool.run('b', thumbnail)).ok).toBe(true);
    const late = await forgotten.run(thumbnail);
    expect(late).toMatchObject({ ok: false, reason: 'unavailable' });
  });

  it('a reservation that cannot be had answers the failure, as a run would', async () => {
    const pool = new RenderPool({ workers: 1 });
    await pool.close();
    expect(await pool.reserve('a')).toMatchObject({ ok: false, reason: 'closed' });
  });
});

describe('an invoice is sent whatever the wait for a render process, and holds the invoice only while it renders', () => {
  let one: TestService;
  let client: ApiClient;
  beforeAll(async () => {
    // one render process: whoever holds it makes every send wait
    one = await startTestService({ rendering: { workers: 1, perEnvironment: 1 } });
    client = await one.environment('waiting');
  });
  afterAll(() => one?.stop());

  it('a send that waits 6 s for the one render process (longer than a write may take) is sent; meanwhile the draft is not locked: an edit of it answers at once', async () => {
    const debtor = await post(client, '/crm/organization', { name: 'Waiting Debtor BV' });
    const id = await post(client, '/invoices/invoice', {
      organization_id: debtor,
      subject: 'waits for its render',
      invoice_lines: [{ description: 'Work', amount: 1, price: 100 }],
    });
    // another environment's job holds the one process for 6 s
    const held = (await one.service.rendering.reserve('elsewhere')) as RenderReservation;
    expect('run' in held).toBe(true);
    const releasing = sleep(6_000).then(() => held.release());
    const started = performance.now();
    const sending = client.v3('POST', `/invoice.send/${encodeURIComponent(id)}`, {});
    await sleep(1_000);
    const edit = await client.v2('PUT', `/invoices/invoice/${id}`, { subject: 'edited while the send waits' });
    expect(edit.status, edit.text).toBe(200);
    expect(performance.now() - started).toBeLessThan(5_000);
    const sent = await sending;
    await releasing;
    expect(sent.status, sent.text).toBe(200);
    expect(performance.now() - started).toBeGreaterThan(5_500);
    const [row] = await one.db.query<{ status: string; subject: string; documents: number }>(
      `SELECT status, subject, (SELECT count(*)::int FROM document d WHERE d.linked_invoice_id = i.id) AS documents
         FROM invoice i WHERE id = $1`,
      [id],
    );
    expect(row).toEqual({ status: 'sent', subject: 'edited while the send waits', documents: 1 });
  });
});
