import path from 'node:path';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { Readable } from 'node:stream';
import { connect } from 'node:tls';
import { FilesystemStorage } from '@bo/db';
import { receiveFile } from '@bo/domain/storage/stream-upload';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpResponse } from './support/http.js';
import { ApiClient, startTestService, type TestService } from './support/service.js';
import { png } from './support/storage.js';

/** every file under a folder (the service's stored files) */
function filesUnder(dir: string): string[] {
  let out: string[] = [];
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return out;
  }
  for (const name of names) {
    const p = path.join(dir, name);
    out = statSync(p).isDirectory() ? out.concat(filesUnder(p)) : out.concat(p);
  }
  return out;
}

/**
 * Sends a request whose Content-Length promises more than the bytes sent, then closes the
 * sending side: the answer, when one comes, and whether the connection simply ended.
 */
function sendShortBody(
  port: number,
  host: string,
  pathAndQuery: string,
  headers: Record<string, string>,
  declared: number,
  sent: Buffer,
): Promise<{ status: number | null; text: string }> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port, servername: 'localhost', rejectUnauthorized: false }, () => {
      const head = [
        `POST ${pathAndQuery} HTTP/1.1`,
        `Host: ${host}`,
        `Content-Length: ${declared}`,
        ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
        '',
        '',
      ].join('\r\n');
      socket.write(head);
      socket.write(sent);
      socket.end();
    });
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    const done = () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const m = /^HTTP\/1\.1 (\d{3})/.exec(text);
      resolve({ status: m ? Number(m[1]) : null, text });
    };
    socket.on('close', done);
    socket.on('error', () => {});
    socket.setTimeout(10_000, () => socket.destroy());
  });
}

describe('a raw-body upload shorter than its declared Content-Length stores nothing (every raw-body upload)', () => {
  let t: TestService;
  let acme: ApiClient;
  let personId: string;
  beforeAll(async () => {
    t = await startTestService();
    acme = await t.environment('short');
    const person = await acme.v2('POST', '/crm/person', { first_name: 'Ranga', family_name: 'Ranges' });
    personId = (person.body as { data: { id: string } }).data.id;
  });
  afterAll(async () => {
    await t?.stop();
  });

  for (const [target, type, readBack] of [
    ['/api/v2/storage/dropzoneupload?type=avatar&file_name=me.png', 'image/png', '/storage/avatar'],
    ['/api/v2/storage/paperlayoutupload?type=logo&file_name=logo.png', 'image/png', '/storage/logo'],
    ['/api/v2/storage/uploadstream?file_name=me.png', 'image/png', null],
  ] as const) {
    it(`${target.split('?')[0]}: 64 MiB declared, a whole small image sent → refused, no row and no file kept`, async () => {
      const rows = async () =>
        Number(
          (
            await t.db.query<{ n: string }>(
              'SELECT (SELECT count(*) FROM storage_asset) + (SELECT count(*) FROM chunked_upload) AS n',
            )
          )[0]?.n,
        );
      const image = await png(8, 8);
      // the same bytes with their true length are stored: the refusal below is the length's
      const whole = await acme.v2('POST', target.replace('/api/v2', ''), image, { headers: { 'content-type': type } });
      expect(whole.status, whole.text).toBe(200);
      // the stored file's ETag is its content's hash
      const etagBefore = readBack ? (await acme.v2('GET', readBack)).headers.etag : undefined;
      const before = await rows();
      const filesBefore = filesUnder(t.dataDir).length;
      const token = acme.token as { key: string; secret: string };
      const res = await sendShortBody(
        t.service.port,
        acme.host,
        target,
        { 'Authentication-Key': token.key, 'Authentication-Secret': token.secret, 'Content-Type': type },
        64 * 1024 * 1024,
        await png(9, 9, '#cc3366'),
      );
      // an answer, if the half-closed connection still gets one, is the refusal in the envelope
      if (res.status !== null) expect(res.status, res.text).toBe(400);
      // the service finishes with the request after the client has gone: give it a moment
      await new Promise((r) => setTimeout(r, 300));
      expect(await rows()).toBe(before);
      expect(filesUnder(t.dataDir).length).toBe(filesBefore);
      // an avatar or logo is replaced in place: the one stored is still the whole one
      if (readBack) {
        const stored = await acme.v2('GET', readBack);
        expect(stored.status).toBe(200);
        expect(etagBefore).toBeTruthy();
        expect(stored.headers.etag).toBe(etagBefore);
      }
    });
  }

  it('a body stream that ends before its declared length (no error from the socket) is refused and removed', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'bo-short-'));
    try {
      const storage = new FilesystemStorage(root);
      const file = {
        fileName: 'notes.txt',
        declaredType: 'text/plain',
        declaredLength: 64 * 1024 * 1024,
        body: Readable.from([Buffer.alloc(300, 0x61)]),
      };
      await expect(
        receiveFile(storage, 'uploads/ab/short', file, { maxBytes: 100 * 1024 * 1024, maxPixels: 1_000_000 }),
      ).rejects.toThrow(/cut short: 300 of the 67108864 bytes/);
      expect(filesUnder(root)).toEqual([]);
      // the same bytes, declared with their true length, are taken
      const whole = await receiveFile(
        storage,
        'uploads/ab/whole',
        { ...file, declaredLength: 300, body: Readable.from([Buffer.alloc(300, 0x61)]) },
        { maxBytes: 100 * 1024 * 1024, maxPixels: 1_000_000 },
      );
      expect(whole.size).toBe(300);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('a range unit other than bytes is ignored: 200 with the whole file (Range: items=0-5)', async () => {
    const body = Buffer.from('0123456789abcdef');
    const up = await acme.v2('POST', '/storage/uploadstream?file_name=r.txt', body, {
      headers: { 'content-type': 'text/plain' },
    });
    expect(up.status).toBe(200);
    const doc = await acme.v2('POST', '/documents/document', {
      title: 'r.txt',
      linked_to: { person_id: personId },
      upload_queue_id: (up.body as { data: { upload_queue_id: string } }).data.upload_queue_id,
    });
    const id = (doc.body as { data?: { id?: string } }).data?.id;
    expect(typeof id, doc.text).toBe('string');
    const get = (range: string): Promise<HttpResponse> =>
      acme.v2('GET', `/storage/downloadasattachment?id=${encodeURIComponent(id as string)}`, undefined, {
        headers: { range },
      });
    const items = await get('items=0-5');
    expect(items.status).toBe(200);
    expect(items.text).toBe(body.toString());
    const bytes = await get('bytes=0-5');
    expect(bytes.status).toBe(206);
    expect(bytes.text).toBe('012345');
  });
});

describe('limits are counted exactly', () => {
  it('failed authentications: N allowed per minute means N attempts answered 401, the next one 429', async () => {
    const t = await startTestService({ limits: { authFailuresPerMinute: 5 } });
    try {
      const acme = await t.environment('guess');
      const wrong = acme.withToken({ key: acme.token?.key ?? '', secret: 'guess' });
      const statuses: number[] = [];
      for (let i = 0; i < 7; i += 1) statuses.push((await wrong.v2('GET', '/crm/organization')).status);
      expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429]);
    } finally {
      await t.stop();
    }
  });

  it('the rate limit: parallel requests through two service instances (v2 and v3 mixed) are answered up to the limit, within one block per instance', async () => {
    const LIMIT = 600;
    const BLOCK = LIMIT / 100;
    const a = await startTestService({ rateLimitPerMinute: LIMIT });
    // a second instance on the same database: its own in-memory blocks, as another process has
    const b = await startTestService({ rateLimitPerMinute: LIMIT, db: a.db });
    try {
      const onA = await a.environment('busy');
      const clientB = new ApiClient(b.service.port, onA.host, onA.token);
      const clients = [onA, clientB];
      const TOTAL = LIMIT + 150;
      const started = Date.now();
      let next = 0;
      const counts = new Map<number, number>();
      const worker = async (w: number) => {
        for (;;) {
          const i = next;
          next += 1;
          if (i >= TOTAL) return;
          const c = clients[(i + w) % 2] as ApiClient;
          const res =
            i % 3 === 0 ? await c.v3('GET', '/organization.list?itemsPerPage=1') : await c.v2('GET', '/crm/organization?limit=1');
          counts.set(res.status, (counts.get(res.status) ?? 0) + 1);
        }
      };
      await Promise.all(Array.from({ length: 25 }, (_, w) => worker(w)));
      const ok = counts.get(200) ?? 0;
      console.log('rate limit counts', [...counts.entries()], Date.now() - started, 'ms');
      expect(ok + (counts.get(429) ?? 0)).toBe(TOTAL);
      expect(ok).toBeLessThanOrEqual(LIMIT);
      expect(ok).toBeGreaterThanOrEqual(LIMIT - 2 * BLOCK);
    } finally {
      await b.stopService();
      await a.stop();
    }
  }, 180_000);
});
