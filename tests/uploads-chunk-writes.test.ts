import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeBase64Bytes } from '../packages/domain/src/uploads/base64.js';
import { createTestDatabase } from './support/database.js';
import { waitFor } from './support/receiver.js';
import { type ApiClient, startTestService, type TestService } from './support/service.js';
import { type StatementLog, startStatementLog } from './support/pg-statement-log.js';

/**
 * How a chunk PUT records its bytes (issue 15): two statements, a write lease on
 * the upload instead of a transaction's row lock, and the base64 decoder's fast
 * path. The rules of the protocol itself are in uploads-documents.test.ts.
 */
type Envelope<T = Record<string, unknown>> = { data: T; errors: string[] | null };
interface Status {
  pointer: number;
  state: string;
}

let t: TestService;
let acme: ApiClient;

beforeAll(async () => {
  t = await startTestService({ runWorker: true });
  acme = await t.environment('acme');
});
afterAll(() => t?.stop());

async function start(client: ApiClient, size: number): Promise<string> {
  const res = await client.v2('POST', '/upload/chunked', { file_name: 'f.bin', file_size: size });
  expect(res.status, res.text).toBe(200);
  return (res.body as Envelope<{ chunked_upload_id: string }>).data.chunked_upload_id;
}

const put = (client: ApiClient, id: string, bytes: Buffer, extra: Record<string, unknown> = {}) =>
  client.v2('PUT', `/upload/chunked/${encodeURIComponent(id)}`, { chunk: bytes.toString('base64'), ...extra });

const storedFile = (dataDir: string, id: string) => {
  const hex = id.split(':')[1] ?? '';
  return path.join(dataDir, 'files', 'uploads', hex.slice(0, 2), hex);
};

describe('statements per chunk', () => {
  let log: StatementLog;
  let s: TestService;
  let client: ApiClient;
  beforeAll(async () => {
    // a service of its own (no worker, so no job runs in between) whose database is reached through a counting proxy
    const db = await createTestDatabase();
    log = await startStatementLog(db.url);
    s = await startTestService({ db: { ...db, url: log.url } });
    client = await s.environment('counted');
  });
  afterAll(async () => {
    await s?.stop();
    await log?.close();
  });

  /** the statements sent since the last take */
  const take = () => {
    const sql = log.statements.map((st) => st.sql);
    log.clear();
    return sql;
  };

  it('a chunk is recorded in two statements: the write lease taken with the read, the new offset with its release', async () => {
    const file = randomBytes(90_000);
    const id = await start(client, file.length);
    expect((await put(client, id, file.subarray(0, 30_000), { pointer: 0 })).status).toBe(200);
    log.clear();
    expect((await put(client, id, file.subarray(30_000, 60_000), { pointer: 30_000 })).status).toBe(200);
    const upload = take().filter((sql) => /chunked_upload|^\s*(BEGIN|COMMIT)/i.test(sql));
    expect(upload).toHaveLength(2);
    expect(upload[0]).toMatch(/^UPDATE chunked_upload SET write_lease = \$3/);
    expect(upload[1]).toMatch(/^UPDATE chunked_upload SET received = /);
    // the last chunk too (it also sets the queue id and the content type)
    const last = await put(client, id, file.subarray(60_000), { pointer: 60_000 });
    expect((last.body as Envelope<Status>).data.state).toBe('done');
    expect(take().filter((sql) => /chunked_upload|^\s*(BEGIN|COMMIT)/i.test(sql))).toHaveLength(2);
    expect(readFileSync(storedFile(s.dataDir, id)).equals(file)).toBe(true);
  });
});

describe('the write lease', () => {
  it('a lease left by a writer that crashed lapses: the next chunk waits for it and is then applied', async () => {
    const file = randomBytes(40_000);
    const id = await start(acme, file.length);
    expect((await put(acme, id, file.subarray(0, 20_000))).status).toBe(200);
    // as a process that died while writing leaves it: a lease nobody will give back
    await t.db.query(
      `UPDATE chunked_upload SET write_lease = 'crashed', write_lease_until = now() + interval '1.5 seconds' WHERE id = $1`,
      [id],
    );
    const started = Date.now();
    const res = await put(acme, id, file.subarray(20_000), { pointer: 20_000 });
    expect(res.status, res.text).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);
    expect((res.body as Envelope<Status>).data).toMatchObject({ pointer: 40_000, state: 'done' });
    expect(readFileSync(storedFile(t.dataDir, id)).equals(file)).toBe(true);
    const [row] = await t.db.query<{ write_lease: string | null }>('SELECT write_lease FROM chunked_upload WHERE id = $1', [id]);
    expect(row?.write_lease).toBeNull();
  });

  it('a refused chunk gives the lease back: the next chunk does not wait', async () => {
    const id = await start(acme, 10);
    expect((await put(acme, id, randomBytes(20))).status).toBe(400); // passes file_size
    expect((await put(acme, id, randomBytes(5), { pointer: 3 })).status).toBe(409);
    const started = Date.now();
    expect((await put(acme, id, randomBytes(10), { pointer: 0 })).status).toBe(200);
    expect(Date.now() - started).toBeLessThan(1_000);
    const [row] = await t.db.query<{ write_lease: string | null }>('SELECT write_lease FROM chunked_upload WHERE id = $1', [id]);
    expect(row?.write_lease).toBeNull();
  });

  it('the expiry job leaves an upload whose chunk is being written, and removes it once the lease has lapsed', async () => {
    const id = await start(acme, 100);
    expect((await put(acme, id, randomBytes(50))).status).toBe(200);
    await t.db.query(
      `UPDATE chunked_upload SET expires_at = now() - interval '1 second', write_lease = 'writing', write_lease_until = now() + interval '1 hour' WHERE id = $1`,
      [id],
    );
    await t.service.worker.boss.send('uploads.expire', {});
    // the job ran (another expired upload went) and this one stayed
    const other = await start(acme, 100);
    await t.db.query(`UPDATE chunked_upload SET expires_at = now() - interval '1 second' WHERE id = $1`, [other]);
    await t.service.worker.boss.send('uploads.expire', {});
    const gone = async (x: string) => (await t.db.query('SELECT 1 FROM chunked_upload WHERE id = $1', [x])).length === 0;
    await waitFor(() => gone(other), 15_000, 'the other expired upload removed');
    expect(await gone(id)).toBe(false);
    await t.db.query(`UPDATE chunked_upload SET write_lease_until = now() - interval '1 second' WHERE id = $1`, [id]);
    await t.service.worker.boss.send('uploads.expire', {});
    await waitFor(() => gone(id), 15_000, 'the upload removed once its lease lapsed');
  });
});

describe('the base64 decoder of chunks', () => {
  const STRICT = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
  const decode = (text: string) => decodeBase64Bytes(Buffer.from(text, 'latin1'), Buffer.allocUnsafe(400_000));

  it('accepts exactly the strict base64 the README names, and decodes it as Node does', () => {
    const char = fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=-_ \n.é'.split(''));
    fc.assert(
      fc.property(fc.array(char, { maxLength: 40 }), (chars) => {
        const text = chars.join('');
        const decoded = decode(text);
        expect(decoded !== null, text).toBe(STRICT.test(text));
        if (decoded) expect(decoded.equals(Buffer.from(text, 'base64'))).toBe(true);
      }),
      { numRuns: 3_000 },
    );
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        expect(decode(Buffer.from(bytes).toString('base64'))?.equals(Buffer.from(bytes))).toBe(true);
      }),
    );
  });

  it('a chunk of several pieces: one wrong character anywhere is refused, the whole decodes exactly', () => {
    const bytes = randomBytes(384_000);
    const text = bytes.toString('base64');
    expect(decode(text)?.equals(bytes)).toBe(true);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: text.length - 1 }), fc.constantFrom('-', '_', ' ', '=', '\n', '*'), (at, c) => {
        // the one exception: padding in place of the last character is base64 again
        const valid = c === '=' && at === text.length - 1;
        expect(decode(text.slice(0, at) + c + text.slice(at + 1)) === null).toBe(!valid);
      }),
      { numRuns: 200 },
    );
    // non-zero trailing bits before the padding are accepted, as the strict expression accepts them
    expect(decode('QR==')?.equals(Buffer.from('A'))).toBe(true);
  });
});
