import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send } from './support/http.js';
import { waitFor } from './support/receiver.js';
import { type ApiClient, startTestService, type TestService } from './support/service.js';

type Envelope<T = Record<string, unknown>> = { data: T; errors: string[] | null; debug: unknown };
interface Status {
  chunked_upload_id: string;
  pointer: number;
  state: 'in_progress' | 'done';
  file_size_current: number;
  file_size_expected: number;
  upload_queue_id?: string;
  download_url?: string;
}

let t: TestService;
let acme: ApiClient;
let invoiceId: string;
let personId: string;

beforeAll(async () => {
  t = await startTestService({ runWorker: true });
  acme = await t.environment('acme');
  const env = (await t.db.query<{ id: string }>(`SELECT id FROM environment WHERE name = 'acme'`))[0]?.id;
  invoiceId = `invoice:${randomBytes(8).toString('hex')}`;
  personId = `person:${randomBytes(8).toString('hex')}`;
  // no invoices or persons API in this branch yet: rows straight into their tables
  await t.db.query(`INSERT INTO invoice (id, environment_id, updated_at) VALUES ($1, $2, now())`, [invoiceId, env]);
  await t.db.query(`INSERT INTO person (id, environment_id, family_name, updated_at) VALUES ($1, $2, 'Jansen', now())`, [
    personId,
    env,
  ]);
});
afterAll(() => t?.stop());

async function start(client: ApiClient, fileName: string, size: number): Promise<string> {
  const res = await client.v2('POST', '/upload/chunked', { file_name: fileName, file_size: size });
  expect(res.status, res.text).toBe(200);
  return (res.body as Envelope<{ chunked_upload_id: string }>).data.chunked_upload_id;
}

async function put(client: ApiClient, id: string, bytes: Buffer, extra: Record<string, unknown> = {}) {
  return client.v2('PUT', `/upload/chunked/${encodeURIComponent(id)}`, { chunk: bytes.toString('base64'), ...extra });
}

/** Uploads `file` in chunks of `chunkSize` bytes; answers the final status. */
async function upload(client: ApiClient, fileName: string, file: Buffer, chunkSize = 64 * 1024): Promise<Status> {
  const id = await start(client, fileName, file.length);
  let status: Status | null = null;
  for (let off = 0; off < file.length; off += chunkSize) {
    const res = await put(client, id, file.subarray(off, off + chunkSize));
    expect(res.status, res.text).toBe(200);
    status = (res.body as Envelope<Status>).data;
  }
  return status as Status;
}

function storedFile(id: string): string {
  const hex = id.split(':')[1] ?? '';
  return path.join(t.dataDir, 'files', 'uploads', hex.slice(0, 2), hex);
}

const row = async (id: string) =>
  (
    await t.db.query<{ received: string; state: string }>('SELECT received::text, state FROM chunked_upload WHERE id = $1', [id])
  )[0];

describe('chunked upload states', () => {
  it('in_progress while fewer bytes than expected have arrived; done when all have, with upload_queue_id and download_url', async () => {
    const file = randomBytes(150_000);
    const id = await start(acme, 'report.bin', file.length);
    const first = await put(acme, id, file.subarray(0, 100_000));
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      data: { pointer: 100_000, state: 'in_progress', file_size_current: 100_000, file_size_expected: 150_000 },
      errors: null,
      debug: null,
    });
    expect((first.body as Envelope<Status>).data.upload_queue_id).toBeUndefined();
    const last = await put(acme, id, file.subarray(100_000));
    const done = (last.body as Envelope<Status>).data;
    expect(done).toMatchObject({ pointer: 150_000, state: 'done', file_size_current: 150_000, file_size_expected: 150_000 });
    expect(done.upload_queue_id).toMatch(/^uploadqueue:/);
    expect(done.download_url).toMatch(/^\/web\/download\/upload\//);
    expect(readFileSync(storedFile(id)).equals(file)).toBe(true);
  });

  it('a done upload accepts no further chunk and stays unchanged', async () => {
    const file = randomBytes(1000);
    const status = await upload(acme, 'small.bin', file);
    const res = await put(acme, status.chunked_upload_id, randomBytes(10));
    expect(res.status).toBe(409);
    expect((res.body as Envelope).errors?.[0]).toContain('done');
    expect(await row(status.chunked_upload_id)).toEqual({ received: '1000', state: 'done' });
    expect(readFileSync(storedFile(status.chunked_upload_id)).equals(file)).toBe(true);
  });

  it('a chunk that would pass file_size, invalid base64, a chunk over 500 kB encoded or an unknown id: a clear 4xx and the upload unchanged', async () => {
    const id = await start(acme, 'guarded.bin', 1_000_000);
    expect((await put(acme, id, randomBytes(100))).status).toBe(200);
    const cases: [unknown, number][] = [
      [{ chunk: 'QUJD!!!!' }, 400],
      [{ chunk: 'not base64 at all' }, 400],
      [{ chunk: 'QUJD=' }, 400],
      [{ chunk: '' }, 400],
      [{ chunk: randomBytes(400_000).toString('base64') }, 400],
      [{ chunk: 12 }, 400],
      [{}, 400],
      [{ chunk: 'QUJD', colour: 'red' }, 400],
    ];
    for (const [body, status] of cases) {
      const res = await acme.v2('PUT', `/upload/chunked/${encodeURIComponent(id)}`, body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(status);
      expect((res.body as Envelope).errors?.length).toBeGreaterThan(0);
    }
    expect(await row(id)).toEqual({ received: '100', state: 'in_progress' });
    // passing file_size
    const small = await start(acme, 'tiny.bin', 10);
    const over = await put(acme, small, randomBytes(11));
    expect(over.status).toBe(400);
    expect((over.body as Envelope).errors?.[0]).toContain('file_size');
    expect(await row(small)).toEqual({ received: '0', state: 'in_progress' });
    expect((await put(acme, 'chunkedupload:doesnotexist', randomBytes(4))).status).toBe(404);
    // start: bad input
    for (const body of [
      {},
      { file_name: '', file_size: 1 },
      { file_name: 'a', file_size: 0 },
      { file_name: 'a', file_size: -1 },
      { file_name: 'a', file_size: 1.5 },
      { file_name: '../x', file_size: 1 },
      { file_name: 'a', file_size: 'many' },
    ]) {
      const res = await acme.v2('POST', '/upload/chunked', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
  });

  it('a chunk PUT body read without JSON.parse of the whole: malformed or odd bodies are refused cleanly and change nothing; escapes and any member order still work', async () => {
    const id = await start(acme, 'raw-body.bin', 1_000_000);
    const first = randomBytes(300);
    expect((await put(acme, id, first)).status).toBe(200);
    const json = { 'content-type': 'application/json' };
    const refused: [string, number][] = [
      ['{"chunk": "QUJD"', 400],
      ['{"chunk": "QUJD",}', 400],
      ['{"chunk": "QUJD"} x', 400],
      ['["QUJD"]', 400],
      ['{"chunk": "QU\u0000JD"}', 400],
      ['{"chunk": "QUJD", "pointer": 01}', 400],
      ['{"chunk": "QUJD", "__proto__": {"pointer": 0}}', 400],
      ['{"chunk": {"a": "QUJD"}}', 400],
      ['{"chunk": "QUJD", "pointer": "300"}', 400],
      [`{"chunk": "${'A'.repeat(1_100_000)}"}`, 413],
    ];
    for (const [body, status] of refused) {
      const res = await acme.v2('PUT', `/upload/chunked/${encodeURIComponent(id)}`, body, { headers: json });
      expect(res.status, body.slice(0, 60)).toBe(status);
      expect((res.body as Envelope).errors?.length).toBeGreaterThan(0);
    }
    expect(await row(id)).toEqual({ received: '300', state: 'in_progress' });
    expect(readFileSync(storedFile(id)).equals(first)).toBe(true);
    // "\/" is how some encoders write "/"; members in any order, with white space around them
    const second = Buffer.from([0xff, 0xfe, 0xfd, 0xfb, 0xff, 0xbf]);
    const escaped = second.toString('base64').replace(/\//g, '\\/');
    expect(escaped).toContain('\\/');
    const res = await acme.v2(
      'PUT',
      `/upload/chunked/${encodeURIComponent(id)}`,
      ` {\n "pointer" : 300 ,\t"chunk":"${escaped}" } `,
      { headers: json },
    );
    expect(res.status, res.text).toBe(200);
    expect(await row(id)).toEqual({ received: '306', state: 'in_progress' });
    expect(readFileSync(storedFile(id)).equals(Buffer.concat([first, second]))).toBe(true);
  });

  it('two PUTs racing on one upload are serialized and the file is never corrupted', async () => {
    const file = randomBytes(10 * 20_000);
    const id = await start(acme, 'race.bin', file.length);
    // three copies of each chunk race, each naming the offset it starts at: one is applied,
    // the others wait for the lock and are then answered as replays (200) or refused (409)
    for (let pointer = 0; pointer < file.length; pointer += 20_000) {
      const chunk = file.subarray(pointer, pointer + 20_000);
      const answers = await Promise.all([1, 2, 3].map(() => put(acme, id, chunk, { pointer })));
      for (const a of answers) expect([200, 409]).toContain(a.status);
      expect(answers.some((a) => a.status === 200)).toBe(true);
      expect(await row(id)).toMatchObject({ received: String(pointer + 20_000) });
    }
    expect(readFileSync(storedFile(id)).equals(file)).toBe(true);
    // without pointers, racing distinct chunks still never interleave bytes: the file is some order of whole chunks
    const a = Buffer.alloc(50_000, 0x61);
    const b = Buffer.alloc(50_000, 0x62);
    const id2 = await start(acme, 'race2.bin', 100_000);
    const [ra, rb] = await Promise.all([put(acme, id2, a), put(acme, id2, b)]);
    expect([ra.status, rb.status]).toEqual([200, 200]);
    const stored = readFileSync(storedFile(id2));
    expect([Buffer.concat([a, b]), Buffer.concat([b, a])].some((x) => x.equals(stored))).toBe(true);
  });

  it('a client that lost a response resumes from pointer: a repeated chunk is not appended twice', async () => {
    const file = randomBytes(30_000);
    const id = await start(acme, 'resume.bin', file.length);
    expect((await put(acme, id, file.subarray(0, 10_000), { pointer: 0 })).status).toBe(200);
    // the answer to this one is "lost": the client sends it again with the same pointer
    expect((await put(acme, id, file.subarray(10_000, 20_000), { pointer: 10_000 })).status).toBe(200);
    const replay = await put(acme, id, file.subarray(10_000, 20_000), { pointer: 10_000 });
    expect(replay.status).toBe(200);
    expect((replay.body as Envelope<Status>).data.pointer).toBe(20_000);
    // a chunk sent from the wrong place is refused and names where the upload stands
    const wrong = await put(acme, id, file.subarray(0, 10), { pointer: 5 });
    expect(wrong.status).toBe(409);
    expect((wrong.body as Envelope).errors?.[0]).toContain('20000');
    const status = (await acme.v2('GET', `/upload/chunked/${encodeURIComponent(id)}`)).body as Envelope<Status>;
    expect(status.data.pointer).toBe(20_000);
    await put(acme, id, file.subarray(status.data.pointer), { pointer: status.data.pointer });
    expect(readFileSync(storedFile(id)).equals(file)).toBe(true);
  });

  it('an upload interrupted by a server restart can be resumed', async () => {
    const own = await startTestService();
    let service: TestService = own;
    try {
      let client = await own.environment('restart');
      const file = randomBytes(200_000);
      const id = await start(client, 'restart.bin', file.length);
      expect((await put(client, id, file.subarray(0, 120_000))).status).toBe(200);
      await own.stopService();
      service = await startTestService({ db: own.db, dataDir: own.dataDir });
      client = new (client.constructor as typeof ApiClient)(service.service.port, client.host, client.token);
      const status = ((await client.v2('GET', `/upload/chunked/${encodeURIComponent(id)}`)).body as Envelope<Status>).data;
      expect(status).toMatchObject({ pointer: 120_000, state: 'in_progress' });
      const done = await put(client, id, file.subarray(status.pointer), { pointer: status.pointer });
      expect((done.body as Envelope<Status>).data.state).toBe('done');
      const hex = id.split(':')[1] ?? '';
      expect(readFileSync(path.join(own.dataDir, 'files', 'uploads', hex.slice(0, 2), hex)).equals(file)).toBe(true);
    } finally {
      await service.stop();
    }
  });

  it('uploads left unfinished expire and the worker removes them and their bytes', async () => {
    const id = await start(acme, 'abandoned.bin', 1000);
    await put(acme, id, randomBytes(10));
    const keep = await start(acme, 'fresh.bin', 1000);
    await put(acme, keep, randomBytes(10));
    await t.db.query(`UPDATE chunked_upload SET expires_at = now() - interval '1 second' WHERE id = $1`, [id]);
    // the worker's clean-up job runs every minute; send one now rather than wait
    await t.service.worker.boss.send('uploads.expire', {});
    await waitFor(async () => !(await row(id)), 15_000, 'expired upload removed');
    expect(() => readFileSync(storedFile(id))).toThrow();
    expect(await row(keep)).toBeDefined();
    expect((await put(acme, id, randomBytes(10))).status).toBe(404);
  });
});

describe('documents', () => {
  async function documentTypeId(): Promise<string> {
    const res = await acme.v2('GET', '/documents/documenttype');
    expect(res.status).toBe(200);
    return ((res.body as Envelope<{ id: string }[]>).data[0] as { id: string }).id;
  }

  it('POST documents/document links a finished upload to an invoice; an upload_queue_id is used once', async () => {
    const pdf = Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(5000)]);
    const status = await upload(acme, 'Invoice 2026-001.pdf', pdf, 2000);
    const typeId = await documentTypeId();
    const res = await acme.v2('POST', '/documents/document', {
      upload_queue_id: status.upload_queue_id,
      title: 'Invoice 2026-001',
      document_type_id: typeId,
      linked_to: { invoice_id: invoiceId },
    });
    expect(res.status, res.text).toBe(200);
    const id = (res.body as Envelope<{ id: string }>).data.id;
    expect(id).toMatch(/^document:/);
    const again = await acme.v2('POST', '/documents/document', {
      upload_queue_id: status.upload_queue_id,
      title: 'Twice',
      document_type_id: typeId,
      linked_to: { invoice_id: invoiceId },
    });
    expect(again.status).toBe(400);
    const n = await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM document WHERE title = 'Twice'`);
    expect(n[0]?.n).toBe(0);

    // invoices/document lists the invoice's documents with id and download_url
    const list = await acme.v2('GET', `/invoices/document?q[linked_to.invoice_id]=${encodeURIComponent(invoiceId)}`);
    expect(list.status, list.text).toBe(200);
    const docs = (list.body as Envelope<{ id: string; download_url: string }[]>).data;
    expect(docs.map((d) => d.id)).toEqual([id]);
    expect(docs[0]?.download_url).toBe(`/web/download/document/${encodeURIComponent(id)}`);

    // the file streams back as application/pdf with its name
    const dl = await acme.v2('GET', `/documents/download/${encodeURIComponent(id)}`);
    expect(dl.status).toBe(200);
    expect(dl.headers['content-type']).toBe('application/pdf');
    expect(dl.headers['content-disposition']).toContain('filename="Invoice 2026-001.pdf"');
    expect(Number(dl.headers['content-length'])).toBe(pdf.length);
    const raw = await new Promise<Buffer>((resolve, reject) => {
      import('node:https').then(({ request }) => {
        const req = request(
          {
            host: '127.0.0.1',
            port: t.service.port,
            path: `/api/v2/documents/download/${encodeURIComponent(id)}`,
            rejectUnauthorized: false,
            headers: {
              host: acme.host,
              'authentication-key': acme.token?.key ?? '',
              'authentication-secret': acme.token?.secret ?? '',
            },
          },
          (r) => {
            const parts: Buffer[] = [];
            r.on('data', (c: Buffer) => parts.push(c));
            r.on('end', () => resolve(Buffer.concat(parts)));
          },
        );
        req.on('error', reject);
        req.end();
      }, reject);
    });
    expect(createHash('sha256').update(raw).digest('hex')).toBe(createHash('sha256').update(pdf).digest('hex'));
  });

  it('a non-PDF downloads as application/octet-stream', async () => {
    const status = await upload(acme, 'notes.txt', Buffer.from('plain text, not a pdf'));
    const res = await acme.v2('POST', '/documents/document', {
      upload_queue_id: status.upload_queue_id,
      title: 'Notes',
      linked_to: { person_id: personId },
    });
    const id = (res.body as Envelope<{ id: string }>).data.id;
    const dl = await acme.v2('GET', `/documents/download/${encodeURIComponent(id)}`);
    expect(dl.headers['content-type']).toBe('application/octet-stream');
    expect(dl.text).toBe('plain text, not a pdf');
  });

  it('download_url is for a browser session: an API token there is refused', async () => {
    const status = await upload(acme, 'browser.bin', randomBytes(100));
    const res = await send(t.service.port, 'GET', status.download_url as string, {
      host: acme.host,
      headers: { 'authentication-key': acme.token?.key ?? '', 'authentication-secret': acme.token?.secret ?? '' },
    });
    expect(res.status).toBe(403);
    expect(res.text).toContain('/api/v2/documents/download');
    const bearer = await send(t.service.port, 'GET', status.download_url as string, {
      host: acme.host,
      headers: { authorization: `Bearer ${acme.token?.key}:${acme.token?.secret}` },
    });
    expect(bearer.status).toBe(403);
  });

  it("invoices/document and documents/download are guarded by the token user's rights", async () => {
    const status = await upload(acme, 'guarded.pdf', Buffer.from('%PDF-guarded'));
    const id = (
      (
        await acme.v2('POST', '/documents/document', {
          upload_queue_id: status.upload_queue_id,
          title: 'Guarded',
          linked_to: { invoice_id: invoiceId },
        })
      ).body as Envelope<{ id: string }>
    ).data.id;
    const nobody = await t.user('acme', 'no-rights@acme.test', { crm: 'read' });
    expect((await nobody.v2('GET', `/invoices/document?q[linked_to.invoice_id]=${encodeURIComponent(invoiceId)}`)).status).toBe(
      403,
    );
    expect((await nobody.v2('GET', `/documents/download/${encodeURIComponent(id)}`)).status).toBe(403);
    const invoicesOnly = await t.user('acme', 'invoices@acme.test', { invoices: 'read' });
    expect(
      (await invoicesOnly.v2('GET', `/invoices/document?q[linked_to.invoice_id]=${encodeURIComponent(invoiceId)}`)).status,
    ).toBe(200);
    expect((await invoicesOnly.v2('GET', `/documents/download/${encodeURIComponent(id)}`)).status).toBe(200);
    expect((await invoicesOnly.v2('GET', '/documents/document')).status).toBe(403);
    // another environment never sees it
    const other = await t.environment('otherenv');
    expect((await other.v2('GET', `/documents/download/${encodeURIComponent(id)}`)).status).toBe(404);
  });

  it('linked_to names exactly one existing person, organization, sale, project or invoice; bad input answers 400 and stores nothing', async () => {
    const before = (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM document'))[0]?.n;
    const status = await upload(acme, 'links.bin', randomBytes(10));
    const base = { upload_queue_id: status.upload_queue_id, title: 'Links' };
    for (const linked_to of [
      {},
      { person_id: personId, invoice_id: invoiceId },
      { person_id: 'person:nope' },
      { project_id: 'project:nope' },
      { colour: 'red' },
      'invoice',
    ]) {
      const res = await acme.v2('POST', '/documents/document', { ...base, linked_to });
      expect(res.status, JSON.stringify(linked_to)).toBe(400);
    }
    expect(
      (
        await acme.v2('POST', '/documents/document', {
          ...base,
          linked_to: { person_id: personId },
          document_type_id: 'documenttype:nope',
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await acme.v2('POST', '/documents/document', {
          ...base,
          upload_queue_id: 'uploadqueue:nope',
          linked_to: { person_id: personId },
        })
      ).status,
    ).toBe(400);
    const unfinished = await start(acme, 'unfinished.bin', 100);
    expect(
      (await acme.v2('POST', '/documents/document', { ...base, upload_queue_id: unfinished, linked_to: { person_id: personId } }))
        .status,
    ).toBe(400);
    expect((await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM document'))[0]?.n).toBe(before);
    // and it still works once
    const org = (await acme.v2('POST', '/crm/organization', { name: 'Doc Org' })).body as Envelope<{ id: string }>;
    const ok = await acme.v2('POST', '/documents/document', { ...base, linked_to: [{ organization_id: org.data.id }] });
    expect(ok.status, ok.text).toBe(200);
    const got = await acme.v2('GET', `/documents/document/${encodeURIComponent((ok.body as Envelope<{ id: string }>).data.id)}`);
    expect((got.body as Envelope).data).toMatchObject({ title: 'Links', linked_to: [{ id: org.data.id, type: 'organization' }] });
  });

  it('documents/document PUT changes the title; DELETE removes it and the clean-up removes its bytes', async () => {
    const status = await upload(acme, 'put.bin', randomBytes(100));
    const id = (
      (
        await acme.v2('POST', '/documents/document', {
          upload_queue_id: status.upload_queue_id,
          title: 'Before',
          linked_to: { person_id: personId },
        })
      ).body as Envelope<{ id: string }>
    ).data.id;
    expect((await acme.v2('PUT', `/documents/document/${encodeURIComponent(id)}`, { title: 'After' })).status).toBe(200);
    expect(((await acme.v2('GET', `/documents/document/${encodeURIComponent(id)}`)).body as Envelope).data).toMatchObject({
      title: 'After',
    });
    expect((await acme.v2('DELETE', `/documents/document/${encodeURIComponent(id)}`)).status).toBe(200);
    expect((await acme.v2('GET', `/documents/document/${encodeURIComponent(id)}`)).status).toBe(404);
    await t.service.worker.boss.send('uploads.expire', {});
    await waitFor(
      async () => (await t.db.query('SELECT 1 FROM chunked_upload WHERE id = $1', [status.chunked_upload_id])).length === 0,
      15_000,
      'bytes removed',
    );
    expect(() => readFileSync(storedFile(status.chunked_upload_id))).toThrow();
  });
});

describe('documents/externaldocument', () => {
  it('GET, POST, PUT (by id and with the id in the body), GET/DELETE by id; an invalid entity reference answers 400', async () => {
    const res = await acme.v2('POST', '/documents/externaldocument', {
      title: 'Spec',
      url: 'https://files.example/spec',
      linked_to: { person_id: personId },
    });
    expect(res.status, res.text).toBe(200);
    const id = (res.body as Envelope<{ id: string }>).data.id;
    expect((await acme.v2('PUT', '/documents/externaldocument', { id, title: 'Spec v2' })).status).toBe(200);
    expect(
      (await acme.v2('PUT', `/documents/externaldocument/${encodeURIComponent(id)}`, { url: 'https://files.example/spec2' }))
        .status,
    ).toBe(200);
    const got = await acme.v2('GET', `/documents/externaldocument/${encodeURIComponent(id)}`);
    expect((got.body as Envelope).data).toMatchObject({
      id,
      title: 'Spec v2',
      url: 'https://files.example/spec2',
      linked_to: [{ id: personId, type: 'person' }],
    });
    expect(((await acme.v2('GET', '/documents/externaldocument')).body as Envelope<unknown[]>).data.length).toBeGreaterThan(0);
    for (const bad of [
      { title: 'X', url: 'https://x.example', linked_to: { person_id: 'person:missing' } },
      { title: 'X', url: 'https://x.example', linked_to: { invoice_id: 'invoice:missing' } },
      { title: 'X', url: 'nope', linked_to: { person_id: personId } },
    ]) {
      expect((await acme.v2('POST', '/documents/externaldocument', bad)).status).toBe(400);
    }
    expect((await acme.v2('PUT', '/documents/externaldocument', { id, linked_to: { sales_id: 'sale:missing' } })).status).toBe(
      400,
    );
    expect((await acme.v2('PUT', '/documents/externaldocument', { title: 'no id' })).status).toBe(400);
    expect((await acme.v2('DELETE', `/documents/externaldocument/${encodeURIComponent(id)}`)).status).toBe(200);
    expect((await acme.v2('GET', `/documents/externaldocument/${encodeURIComponent(id)}`)).status).toBe(404);
  });
});

describe('timeline', () => {
  it('timeline/message has source_type: ai marks an AI-generated summary, null when unclassified; attachments link documents', async () => {
    const types = (await acme.v2('GET', '/timeline/messagetype')).body as Envelope<{ id: string; label: string }[]>;
    expect(types.data.length).toBeGreaterThan(0);
    const ai = await acme.v2('POST', '/timeline/message', {
      messagetype_id: types.data[0]?.id,
      linked_to: { person_id: personId },
      title: 'Summary',
      content: 'AI wrote this',
      source_type: 'ai',
    });
    expect(ai.status, ai.text).toBe(200);
    const plain = await acme.v2('POST', '/timeline/message', {
      linked_to: { person_id: personId },
      content: 'a person wrote this',
    });
    const aiId = (ai.body as Envelope<{ id: string }>).data.id;
    const plainId = (plain.body as Envelope<{ id: string }>).data.id;
    expect(((await acme.v2('GET', `/timeline/message/${encodeURIComponent(aiId)}`)).body as Envelope).data).toMatchObject({
      source_type: 'ai',
      message_type: { id: types.data[0]?.id },
    });
    expect(((await acme.v2('GET', `/timeline/message/${encodeURIComponent(plainId)}`)).body as Envelope).data).toMatchObject({
      source_type: null,
    });
    const list = (await acme.v2('GET', '/timeline/message?q[source_type]=ai')).body as Envelope<{ id: string }[]>;
    expect(list.data.map((m) => m.id)).toEqual([aiId]);
    expect(
      (await acme.v2('POST', '/timeline/message', { linked_to: { person_id: personId }, source_type: 'robot' })).status,
    ).toBe(400);

    const status = await upload(acme, 'attach.pdf', Buffer.from('%PDF-attach'));
    const docId = (
      (
        await acme.v2('POST', '/documents/document', {
          upload_queue_id: status.upload_queue_id,
          title: 'Attached',
          linked_to: { person_id: personId },
        })
      ).body as Envelope<{ id: string }>
    ).data.id;
    const att = await acme.v2('POST', '/timeline/attachment', { message_id: aiId, document_id: docId });
    expect(att.status, att.text).toBe(200);
    expect((await acme.v2('POST', '/timeline/attachment', { message_id: aiId, document_id: docId })).status).toBe(409);
    expect((await acme.v2('POST', '/timeline/attachment', { message_id: aiId, document_id: 'document:nope' })).status).toBe(400);
    const msg = (await acme.v2('GET', `/timeline/message/${encodeURIComponent(aiId)}`)).body as Envelope<{
      attachments: { document_id: string }[];
    }>;
    expect(msg.data.attachments.map((a) => a.document_id)).toEqual([docId]);
  });
});
