import { randomBytes } from 'node:crypto';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookable, v2Post } from './support/hours.js';
import { referenceData } from './support/projects.js';
import { type ApiClient, startTestService, type TestService } from './support/service.js';
import { filesUnder, getBytes, jpeg, onePagePdf, PDF, png, pngBomb, sendRaw } from './support/storage.js';

type Envelope<T = Record<string, unknown>> = { data: T; errors: string[] | null; debug: unknown };
interface Status {
  chunked_upload_id: string;
  state: string;
  pointer: number;
  file_size_current: number;
  file_size_expected: number;
  upload_queue_id?: string;
  download_url?: string;
}

const MAX_FILE = 3_000_000;
const MAX_ASSET = 200_000;
const MAX_PIXELS = 40_000_000;

let t: TestService;
let acme: ApiClient;
let reader: ApiClient;
let nobody: ApiClient;
let other: ApiClient;
let envId: string;
let profileId: string;
let personId: string;
let picture: Buffer;

beforeAll(async () => {
  t = await startTestService({ uploads: { maxFileSize: MAX_FILE, maxAssetSize: MAX_ASSET, maxImagePixels: MAX_PIXELS } });
  acme = await t.environment('acme');
  reader = await t.user('acme', 'reader@acme.test', { documents: 'read', crm: 'read' });
  nobody = await t.user('acme', 'nobody@acme.test', { hours: 'read' });
  other = await t.environment('globex');
  envId = ((await t.db.query<{ id: string }>(`SELECT id FROM environment WHERE name = 'acme'`))[0] as { id: string }).id;
  // the environment's own company profile, seeded with it
  const profiles = await t.db.query<{ id: string }>(
    'SELECT id FROM my_organization_profile WHERE environment_id = $1 ORDER BY main_profile DESC, created_at',
    [envId],
  );
  profileId = (profiles[0] as { id: string }).id;
  personId = `person:${randomBytes(8).toString('hex')}`;
  // no persons needed beyond a row to link documents to
  await t.db.query(`INSERT INTO person (id, environment_id, family_name, updated_at) VALUES ($1, $2, 'Jansen', now())`, [
    personId,
    envId,
  ]);
  picture = await jpeg(1200, 800);
});
afterAll(() => t?.stop());

const filesRoot = () => path.join(t.dataDir, 'files');

async function streamUpload(
  client: ApiClient,
  fileName: string,
  bytes: Buffer,
  type = 'application/octet-stream',
  chunked = false,
) {
  return sendRaw(client, 'POST', `/storage/uploadstream?file_name=${encodeURIComponent(fileName)}`, bytes, {
    headers: { 'content-type': type },
    chunked,
  });
}

/** a document made of bytes sent by uploadstream */
async function documentOf(fileName: string, bytes: Buffer, type?: string): Promise<string> {
  const up = await streamUpload(acme, fileName, bytes, type);
  expect(up.status, up.text).toBe(200);
  const queue = (up.body as Envelope<Status>).data.upload_queue_id;
  const res = await acme.v2('POST', '/documents/document', {
    title: fileName,
    upload_queue_id: queue,
    linked_to: { person_id: personId },
  });
  expect(res.status, res.text).toBe(200);
  return (res.body as Envelope<{ id: string }>).data.id;
}

async function nothingStoredBy(run: () => Promise<void>): Promise<void> {
  const files = filesUnder(filesRoot());
  const [uploads] = await t.db.query<{ n: string }>('SELECT count(*) AS n FROM chunked_upload');
  const [assets] = await t.db.query<{ n: string }>('SELECT count(*) AS n FROM storage_asset');
  await run();
  expect(filesUnder(filesRoot())).toEqual(files);
  expect((await t.db.query<{ n: string }>('SELECT count(*) AS n FROM chunked_upload'))[0]).toEqual(uploads);
  expect((await t.db.query<{ n: string }>('SELECT count(*) AS n FROM storage_asset'))[0]).toEqual(assets);
}

describe('storage/uploadstream', () => {
  it('streams the body to disk and answers a done upload whose upload_queue_id makes a document like a chunked one', async () => {
    const bytes = randomBytes(1_500_000);
    const res = await streamUpload(acme, 'data.bin', bytes, 'application/octet-stream', true);
    expect(res.status, res.text).toBe(200);
    const status = (res.body as Envelope<Status>).data;
    expect(status).toMatchObject({ state: 'done', pointer: bytes.length, file_size_expected: bytes.length });
    expect(status.upload_queue_id).toMatch(/^uploadqueue:/);
    expect(status.download_url).toMatch(/^\/web\/download\/upload\//);
    // the same as a finished chunked upload: GET upload/chunked/{id} knows it
    const got = await acme.v2('GET', `/upload/chunked/${encodeURIComponent(status.chunked_upload_id)}`);
    expect((got.body as Envelope<Status>).data.state).toBe('done');
    const doc = await acme.v2('POST', '/documents/document', {
      title: 'Data',
      upload_queue_id: status.upload_queue_id,
      linked_to: { person_id: personId },
    });
    expect(doc.status, doc.text).toBe(200);
    const id = (doc.body as Envelope<{ id: string }>).data.id;
    const back = await getBytes(acme, `/storage/download?id=${encodeURIComponent(id)}`);
    expect(back.status).toBe(200);
    expect(back.bytes.equals(bytes)).toBe(true);
  });

  it('tells the type by the bytes: a PNG is image/png whatever the client left generic', async () => {
    const id = await documentOf('chart.png', await png(40, 30));
    const rows = await t.db.query<{ content_type: string }>('SELECT content_type FROM document WHERE id = $1', [id]);
    expect(rows[0]?.content_type).toBe('image/png');
  });

  it('needs the documents write right', async () => {
    await nothingStoredBy(async () => {
      const res = await streamUpload(reader, 'a.bin', randomBytes(100));
      expect(res.status).toBe(403);
    });
  });
});

describe('storage: refused inputs store nothing', () => {
  for (const name of ['../../etc/passwd', 'a/b.txt', '..\\x.txt', '.htaccess', 'x\u0000.txt', '..', 'trailing.']) {
    it(`path tricks in names are refused: ${JSON.stringify(name)}`, async () => {
      await nothingStoredBy(async () => {
        const res = await streamUpload(acme, name, Buffer.from('hello'), 'text/plain');
        expect(res.status, res.text).toBe(400);
        expect((res.body as Envelope).errors?.join(' ')).toMatch(/file_name/);
      });
    });
  }

  it('a declared type that the bytes contradict is refused (PDF bytes sent as image/png)', async () => {
    await nothingStoredBy(async () => {
      const res = await streamUpload(acme, 'scan.bin', PDF, 'image/png');
      expect(res.status, res.text).toBe(400);
      expect((res.body as Envelope).errors?.join(' ')).toMatch(/application\/pdf, not image\/png/);
    });
  });

  it('a name whose extension the bytes contradict is refused (PNG bytes named .pdf)', async () => {
    const image = await png(10, 10);
    await nothingStoredBy(async () => {
      const res = await streamUpload(acme, 'invoice.pdf', image);
      expect(res.status, res.text).toBe(400);
    });
  });

  it('files over the configured limit are refused: by Content-Length before reading, and while streaming without one', async () => {
    const big = randomBytes(MAX_FILE + 1);
    await nothingStoredBy(async () => {
      const declared = await streamUpload(acme, 'big.bin', big);
      expect(declared.status, declared.text).toBe(400);
      expect((declared.body as Envelope).errors?.join(' ')).toMatch(/limited to 3000000 bytes/);
      const streamed = await streamUpload(acme, 'big.bin', big, 'application/octet-stream', true);
      expect(streamed.status, streamed.text).toBe(400);
    });
  });

  it('images that decompress to absurd sizes are refused from their header, never decoded', async () => {
    const bomb = await pngBomb(100_000, 100_000);
    expect(bomb.length).toBeLessThan(200);
    await nothingStoredBy(async () => {
      const res = await streamUpload(acme, 'bomb.png', bomb, 'image/png');
      expect(res.status, res.text).toBe(400);
      expect((res.body as Envelope).errors?.join(' ')).toMatch(/100000 × 100000 pixels/);
      const logo = await sendRaw(acme, 'POST', '/storage/paperlayoutupload?type=logo&file_name=logo.png', bomb, {
        headers: { 'content-type': 'image/png' },
      });
      expect(logo.status, logo.text).toBe(400);
    });
  });

  it('a NUL byte anywhere is a 4xx, never a 500', async () => {
    for (const p of [
      '/storage/download?id=%00',
      '/storage/thumbnail?id=%00',
      '/storage/costsattachment?expense_id=%00',
      '/storage/avatar?user_id=%00',
      '/storage/logo?my_organization_profile_id=%00',
    ]) {
      const res = await acme.v2('GET', p);
      expect(res.status, p).toBeGreaterThanOrEqual(400);
      expect(res.status, p).toBeLessThan(500);
    }
    // an icon needs no lookup: an unknown extension is the generic icon
    expect((await acme.v2('GET', '/storage/fileicon?extension=%00')).status).toBe(200);
    await nothingStoredBy(async () => {
      const res = await streamUpload(acme, 'a\u0000b.txt', Buffer.from('x'));
      expect(res.status).toBe(400);
    });
  });

  it('an empty body is refused', async () => {
    await nothingStoredBy(async () => {
      const res = await streamUpload(acme, 'empty.txt', Buffer.alloc(0), 'text/plain');
      expect(res.status).toBe(400);
    });
  });
});

describe('storage downloads: download, getfile, loadfile, filex, documenteditordownload, downloadasattachment', () => {
  let id: string;
  const bytes = Buffer.concat([PDF, randomBytes(5000)]);
  beforeAll(async () => {
    id = await documentOf('Offer 2026.pdf', bytes, 'application/pdf');
  });

  for (const name of ['download', 'getfile', 'loadfile', 'filex', 'documenteditordownload']) {
    it(`GET storage/${name}?id= answers the bytes inline with an ETag`, async () => {
      const res = await getBytes(acme, `/storage/${name}?id=${encodeURIComponent(id)}`);
      expect(res.status).toBe(200);
      expect(res.bytes.equals(bytes)).toBe(true);
      expect(res.headers['content-type']).toBe('application/pdf');
      expect(res.headers['content-disposition']).toMatch(/^inline; filename="Offer 2026.pdf"/);
      expect(res.headers.etag).toMatch(/^"[\w-]+"$/);
      expect(res.headers['accept-ranges']).toBe('bytes');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    });
  }

  it('documents/download/{id} answers the same bytes with ETag and Range, typed as its contract says', async () => {
    const res = await getBytes(acme, `/documents/download/${encodeURIComponent(id)}`, { range: 'bytes=0-3' });
    expect(res.status).toBe(206);
    expect(res.bytes.toString()).toBe('%PDF');
    expect(res.headers['content-type']).toBe('application/pdf');
    const etag = res.headers.etag as string;
    expect((await getBytes(acme, `/documents/download/${encodeURIComponent(id)}`, { 'if-none-match': etag })).status).toBe(304);
    const image = await documentOf('pixel.png', await png(2, 2));
    const other = await getBytes(acme, `/documents/download/${encodeURIComponent(image)}`);
    expect(other.headers['content-type']).toBe('application/octet-stream');
    expect((await getBytes(acme, `/storage/download?id=${encodeURIComponent(image)}`)).headers['content-type']).toBe('image/png');
  });

  it('downloadasattachment answers Content-Disposition attachment', async () => {
    const res = await getBytes(acme, `/storage/downloadasattachment?id=${encodeURIComponent(id)}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="Offer 2026.pdf"; filename\*=UTF-8''Offer%202026.pdf$/,
    );
    expect(res.bytes.equals(bytes)).toBe(true);
  });

  it('If-None-Match with the ETag answers 304 without a body, on every download path', async () => {
    for (const name of ['download', 'getfile', 'loadfile', 'filex', 'documenteditordownload', 'downloadasattachment']) {
      const first = await getBytes(acme, `/storage/${name}?id=${encodeURIComponent(id)}`);
      const again = await getBytes(acme, `/storage/${name}?id=${encodeURIComponent(id)}`, {
        'if-none-match': first.headers.etag as string,
      });
      expect(again.status, name).toBe(304);
      expect(again.bytes.length).toBe(0);
      const stale = await getBytes(acme, `/storage/${name}?id=${encodeURIComponent(id)}`, { 'if-none-match': '"other"' });
      expect(stale.status).toBe(200);
    }
  });

  it('Range requests answer 206 with Content-Range; an unsatisfiable one 416; a stale If-Range the whole file', async () => {
    for (const name of ['download', 'getfile', 'loadfile', 'filex', 'documenteditordownload', 'downloadasattachment']) {
      const part = await getBytes(acme, `/storage/${name}?id=${encodeURIComponent(id)}`, { range: 'bytes=10-99' });
      expect(part.status, name).toBe(206);
      expect(part.headers['content-range']).toBe(`bytes 10-99/${bytes.length}`);
      expect(part.bytes.equals(bytes.subarray(10, 100))).toBe(true);
    }
    const tail = await getBytes(acme, `/storage/download?id=${encodeURIComponent(id)}`, { range: 'bytes=-16' });
    expect(tail.status).toBe(206);
    expect(tail.bytes.equals(bytes.subarray(bytes.length - 16))).toBe(true);
    const outside = await getBytes(acme, `/storage/download?id=${encodeURIComponent(id)}`, {
      range: `bytes=${bytes.length + 10}-`,
    });
    expect(outside.status).toBe(416);
    expect(outside.headers['content-range']).toBe(`bytes */${bytes.length}`);
    const stale = await getBytes(acme, `/storage/download?id=${encodeURIComponent(id)}`, {
      range: 'bytes=0-9',
      'if-range': '"older"',
    });
    expect(stale.status).toBe(200);
    expect(stale.bytes.length).toBe(bytes.length);
  });

  it("bytes are under the token user's rights: no documents right is 403, another environment's document is 404", async () => {
    expect((await getBytes(nobody, `/storage/download?id=${encodeURIComponent(id)}`)).status).toBe(403);
    expect((await getBytes(reader, `/storage/download?id=${encodeURIComponent(id)}`)).status).toBe(200);
    expect((await getBytes(other, `/storage/download?id=${encodeURIComponent(id)}`)).status).toBe(404);
    const missing = await acme.v2('GET', '/storage/download?id=document:nope');
    expect(missing.status).toBe(404);
    const noId = await acme.v2('GET', '/storage/download');
    expect(noId.status).toBe(400);
    expect((noId.body as Envelope).errors).toEqual(['id: the id of the document is required']);
  });
});

describe('storage thumbnails: thumbnail, cachedthumb, preview', () => {
  let imageId: string;
  let pdfId: string;
  let brokenPdfId: string;
  beforeAll(async () => {
    imageId = await documentOf('photo.jpg', picture, 'image/jpeg');
    pdfId = await documentOf('contract.pdf', onePagePdf(), 'application/pdf');
    brokenPdfId = await documentOf('empty.pdf', PDF, 'application/pdf');
  });

  it('a thumbnail of an image is a real PNG at most size pixels on its longest side, cached on disk by content', async () => {
    const res = await getBytes(acme, `/storage/thumbnail?id=${encodeURIComponent(imageId)}&size=128`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    const meta = await sharp(res.bytes).metadata();
    expect(meta.format).toBe('png');
    expect([meta.width, meta.height]).toEqual([128, 85]);
    const cached = filesUnder(filesRoot()).filter((f) => f.startsWith('thumbs'));
    expect(cached.some((f) => f.endsWith('-128'))).toBe(true);
    // cachedthumb answers the same cached bytes and validator
    const again = await getBytes(acme, `/storage/cachedthumb?id=${encodeURIComponent(imageId)}&size=128`);
    expect(again.status).toBe(200);
    expect(again.bytes.equals(res.bytes)).toBe(true);
    expect(again.headers.etag).toBe(res.headers.etag);
    expect(again.headers['cache-control']).toMatch(/immutable/);
    const notModified = await getBytes(acme, `/storage/cachedthumb?id=${encodeURIComponent(imageId)}&size=128`, {
      'if-none-match': res.headers.etag as string,
    });
    expect(notModified.status).toBe(304);
  });

  it('the same bytes in another document share the cached thumbnail (the key is the content)', async () => {
    const before = filesUnder(filesRoot()).filter((f) => f.startsWith('thumbs')).length;
    const twin = await documentOf('photo-copy.jpg', picture, 'image/jpeg');
    const res = await getBytes(acme, `/storage/thumbnail?id=${encodeURIComponent(twin)}&size=128`);
    expect(res.status).toBe(200);
    expect(filesUnder(filesRoot()).filter((f) => f.startsWith('thumbs')).length).toBe(before);
  });

  it('preview is the large thumbnail (at most 1024 pixels, never enlarged)', async () => {
    const res = await getBytes(acme, `/storage/preview?id=${encodeURIComponent(imageId)}`);
    expect(res.status).toBe(200);
    const meta = await sharp(res.bytes).metadata();
    expect([meta.width, meta.height]).toEqual([1024, 683]);
    expect(res.headers['content-range']).toBeUndefined();
    const ranged = await getBytes(acme, `/storage/preview?id=${encodeURIComponent(imageId)}`, { range: 'bytes=0-7' });
    expect(ranged.status).toBe(206);
    expect(ranged.bytes.equals(res.bytes.subarray(0, 8))).toBe(true);
  });

  it("a PDF's thumbnail is its first page, rendered (pdf.js) and cached by content", async () => {
    const res = await getBytes(acme, `/storage/thumbnail?id=${encodeURIComponent(pdfId)}&size=256`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    const { data, info } = await sharp(res.bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([198, 256]);
    // the blue rectangle of the page, at (72..272, 192..292) points from the top, scaled by 256/792
    const at = (x: number, y: number) => [...data.subarray((y * info.width + x) * 3, (y * info.width + x) * 3 + 3)];
    expect(at(50, 78)).toEqual([0, 0, 255]);
    expect(at(150, 200)).toEqual([255, 255, 255]);
    const again = await getBytes(acme, `/storage/cachedthumb?id=${encodeURIComponent(pdfId)}&size=256`);
    expect(again.bytes.equals(res.bytes)).toBe(true);
  });

  it('a PDF that cannot be rendered (no pages) gets the icon of its type', async () => {
    const res = await getBytes(acme, `/storage/thumbnail?id=${encodeURIComponent(brokenPdfId)}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('image/svg+xml');
    expect(res.bytes.toString()).toContain('>PDF<');
  });

  it('a file that is neither an image nor a PDF gets the icon of its type', async () => {
    const id = await documentOf('notes.txt', Buffer.from('plain words'), 'text/plain');
    const res = await getBytes(acme, `/storage/preview?id=${encodeURIComponent(id)}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('image/svg+xml');
    expect(res.bytes.toString()).toContain('>DOC<');
  });

  it('a size outside the list is refused; no right is 403', async () => {
    const res = await acme.v2('GET', `/storage/thumbnail?id=${encodeURIComponent(imageId)}&size=99999`);
    expect(res.status).toBe(400);
    expect((await getBytes(nobody, `/storage/thumbnail?id=${encodeURIComponent(imageId)}`)).status).toBe(403);
  });
});

describe('storage icons: fileicon and getfileicon', () => {
  it('GET fileicon answers an SVG icon by extension, content type or document', async () => {
    const byExt = await getBytes(acme, '/storage/fileicon?extension=xlsx');
    expect(byExt.status).toBe(200);
    expect(byExt.headers['content-type']).toBe('image/svg+xml');
    expect(byExt.bytes.toString()).toContain('>XLS<');
    const byType = await getBytes(acme, '/storage/fileicon?content_type=application%2Fpdf');
    expect(byType.bytes.toString()).toContain('>PDF<');
    const unknown = await getBytes(acme, '/storage/fileicon?extension=qqq');
    expect(unknown.bytes.toString()).toContain('>FILE<');
  });

  it('POST getfileicon answers the icon of a file name given in the JSON body', async () => {
    const res = await getBytes(acme, '/storage/fileicon?file_name=a.zip');
    expect(res.bytes.toString()).toContain('>ZIP<');
    const post = await acme.v2('POST', '/storage/getfileicon', { file_name: 'slides.pptx' });
    expect(post.status).toBe(200);
    expect(post.headers['content-type']).toBe('image/svg+xml');
    expect(post.text).toContain('>PPT<');
  });
});

describe('storage: company-profile logo and letter paper, user avatar and signature', () => {
  it('paperlayoutupload stores the logo; logo, getlogofile and downloadlogo read it', async () => {
    const logo = await png(300, 100, '#ff0000');
    const up = await sendRaw(acme, 'POST', `/storage/paperlayoutupload?type=logo&file_name=logo.png`, logo, {
      headers: { 'content-type': 'image/png' },
    });
    expect(up.status, up.text).toBe(200);
    expect((up.body as Envelope).data).toMatchObject({
      type: 'logo',
      my_organization_profile_id: profileId,
      file_name: 'logo.png',
      content_type: 'image/png',
      file_size: logo.length,
    });
    for (const name of ['logo', 'getlogofile', 'downloadlogo']) {
      const res = await getBytes(reader, `/storage/${name}?my_organization_profile_id=${encodeURIComponent(profileId)}`);
      expect(res.status, name).toBe(200);
      expect(res.bytes.equals(logo)).toBe(true);
      expect(res.headers['content-disposition']).toMatch(name === 'downloadlogo' ? /^attachment/ : /^inline/);
    }
    // without a profile id: the main profile's
    expect((await getBytes(acme, '/storage/logo')).bytes.equals(logo)).toBe(true);
    // a new upload replaces it, and the old bytes are removed
    const newer = await png(200, 200, '#00ff00');
    await sendRaw(acme, 'POST', '/storage/paperlayoutupload?type=logo&file_name=logo2.png', newer, {
      headers: { 'content-type': 'image/png' },
    });
    expect((await getBytes(acme, '/storage/logo')).bytes.equals(newer)).toBe(true);
    expect(filesUnder(filesRoot()).filter((f) => f.startsWith('assets')).length).toBe(1);
  });

  it('paperlayoutupload stores the letter paper (a PDF); letterpaper and downloadletterpaper read it', async () => {
    const up = await sendRaw(acme, 'POST', '/storage/paperlayoutupload?type=letterpaper&file_name=paper.pdf', PDF, {
      headers: { 'content-type': 'application/pdf' },
    });
    expect(up.status, up.text).toBe(200);
    const a = await getBytes(acme, '/storage/letterpaper');
    expect(a.bytes.equals(PDF)).toBe(true);
    const b = await getBytes(acme, '/storage/downloadletterpaper');
    expect(b.headers['content-disposition']).toMatch(/^attachment; filename="paper.pdf"/);
    const etag = a.headers.etag as string;
    expect((await getBytes(acme, '/storage/letterpaper', { 'if-none-match': etag })).status).toBe(304);
    expect((await getBytes(acme, '/storage/letterpaper', { range: 'bytes=0-3' })).bytes.toString()).toBe('%PDF');
  });

  it('company files need the crm right (write to upload) and refuse what is not an image (an SVG logo)', async () => {
    await nothingStoredBy(async () => {
      const denied = await sendRaw(reader, 'POST', '/storage/paperlayoutupload?type=logo&file_name=l.png', await png(5, 5), {
        headers: { 'content-type': 'image/png' },
      });
      expect(denied.status).toBe(403);
      const svg = await sendRaw(
        acme,
        'POST',
        '/storage/paperlayoutupload?type=logo&file_name=l.svg',
        Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
        { headers: { 'content-type': 'image/svg+xml' } },
      );
      expect(svg.status).toBe(400);
      const tooBig = await sendRaw(
        acme,
        'POST',
        '/storage/paperlayoutupload?type=logo&file_name=l.bin',
        randomBytes(MAX_ASSET + 1),
      );
      expect(tooBig.status).toBe(400);
      const badType = await sendRaw(acme, 'POST', '/storage/paperlayoutupload?type=avatar&file_name=l.png', await png(5, 5));
      expect(badType.status).toBe(400);
      const foreign = await sendRaw(
        acme,
        'POST',
        '/storage/paperlayoutupload?type=logo&file_name=l.png&my_organization_profile_id=myorganizationprofile:none',
        await png(5, 5),
      );
      expect(foreign.status).toBe(404);
    });
    expect((await getBytes(nobody, '/storage/logo')).status).toBe(403);
  });

  it('a company profile restricted to other users takes no upload from this one (403)', async () => {
    const restricted = `myorganizationprofile:${randomBytes(8).toString('hex')}`;
    await t.db.query(
      `INSERT INTO my_organization_profile (id, environment_id, name, updated_at) VALUES ($1, $2, 'Restricted BV', now())`,
      [restricted, envId],
    );
    const readerId = (
      (await t.db.query<{ id: string }>(`SELECT id FROM user_account WHERE email = 'reader@acme.test'`))[0] as {
        id: string;
      }
    ).id;
    await t.db.query(`INSERT INTO my_organization_profile_access (environment_id, profile_id, user_id) VALUES ($1, $2, $3)`, [
      envId,
      restricted,
      readerId,
    ]);
    await nothingStoredBy(async () => {
      const res = await sendRaw(
        acme,
        'POST',
        `/storage/paperlayoutupload?type=logo&file_name=l.png&my_organization_profile_id=${encodeURIComponent(restricted)}`,
        await png(5, 5),
      );
      expect(res.status).toBe(403);
    });
  });

  it("dropzoneupload stores the user's avatar and signature; avatar is seen by colleagues, a signature only by its user", async () => {
    const face = await png(64, 64, '#123456');
    const sign = await png(200, 60, '#000000');
    const a = await sendRaw(acme, 'POST', '/storage/dropzoneupload?type=avatar&file_name=me.png', face, {
      headers: { 'content-type': 'image/png' },
    });
    expect(a.status, a.text).toBe(200);
    const userId = (a.body as Envelope<{ user_id: string }>).data.user_id;
    const s = await sendRaw(acme, 'POST', '/storage/dropzoneupload?type=signature&file_name=sig.png', sign);
    expect(s.status, s.text).toBe(200);
    expect((await getBytes(acme, '/storage/avatar')).bytes.equals(face)).toBe(true);
    expect((await getBytes(acme, '/storage/signature')).bytes.equals(sign)).toBe(true);
    expect((await getBytes(reader, `/storage/avatar?user_id=${encodeURIComponent(userId)}`)).bytes.equals(face)).toBe(true);
    expect((await getBytes(reader, `/storage/signature?user_id=${encodeURIComponent(userId)}`)).status).toBe(403);
    expect((await getBytes(reader, '/storage/signature')).status).toBe(404);
    expect((await getBytes(other, `/storage/avatar?user_id=${encodeURIComponent(userId)}`)).status).toBe(404);
    const forOther = await sendRaw(reader, 'POST', `/storage/dropzoneupload?type=avatar&file_name=x.png&user_id=${userId}`, face);
    expect(forOther.status).toBe(403);
  });
});

describe('storage/costsattachment', () => {
  it("answers an expense's attachment (costs/expense attachments) under the costs right", async () => {
    const id = await documentOf('receipt.pdf', PDF, 'application/pdf');
    // an expense booked through v2 with the document as its attachment
    const b = await bookable(acme, 'Receipts');
    const costType = (await referenceData(acme)).costTypes[0]?.id as string;
    const service = await v2Post(acme, '/projects/service', {
      project_id: b.project,
      name: 'Costs',
      invoice_method: 'Hours',
      hour_types: [{ hourtype_id: costType, billable: true, tariff: 12 }],
    });
    const expenseId = await v2Post(acme, '/costs/expense', {
      employee_id: b.employee,
      service_id: service,
      costtype_id: costType,
      date: '2026-03-05',
      amount: 1,
      attachments: [{ id }],
    });
    const res = await getBytes(acme, `/storage/costsattachment?expense_id=${encodeURIComponent(expenseId)}`);
    expect(res.status).toBe(200);
    expect(res.bytes.equals(PDF)).toBe(true);
    expect(res.headers.etag).toBeTruthy();
    expect((await getBytes(acme, `/storage/costsattachment?id=${encodeURIComponent(id)}`)).status).toBe(200);
    expect(
      (await getBytes(acme, `/storage/costsattachment?expense_id=${encodeURIComponent(expenseId)}`, { range: 'bytes=0-3' }))
        .status,
    ).toBe(206);
    expect((await getBytes(reader, `/storage/costsattachment?expense_id=${encodeURIComponent(expenseId)}`)).status).toBe(403);
    expect((await getBytes(acme, '/storage/costsattachment?expense_id=expense:none')).status).toBe(404);
    // a document that is no expense's attachment is not served here
    const loose = await documentOf('loose.pdf', PDF, 'application/pdf');
    expect((await getBytes(acme, `/storage/costsattachment?id=${encodeURIComponent(loose)}`)).status).toBe(404);
    expect((await acme.v2('GET', '/storage/costsattachment')).status).toBe(400);
  });
});

describe('storage: every path is routed and documented', () => {
  const GET = [
    'avatar',
    'cachedthumb',
    'costsattachment',
    'documenteditordownload',
    'download',
    'downloadasattachment',
    'downloadletterpaper',
    'downloadlogo',
    'fileicon',
    'filex',
    'getfile',
    'getlogofile',
    'letterpaper',
    'loadfile',
    'logo',
    'preview',
    'signature',
    'thumbnail',
  ];
  const POST = ['dropzoneupload', 'getfileicon', 'paperlayoutupload', 'uploadstream'];

  it('all 22 paths answer (none is "no such endpoint"), and none without a token', async () => {
    for (const p of GET) {
      const res = await acme.v2('GET', `/storage/${p}`);
      expect((res.body as Envelope | undefined)?.errors ?? [], p).not.toContain('no such endpoint');
      expect((await acme.withToken(null).v2('GET', `/storage/${p}`)).status, p).toBe(401);
    }
    for (const p of POST) {
      const res = await acme.v2('POST', `/storage/${p}`, {});
      expect((res.body as Envelope | undefined)?.errors ?? [], p).not.toContain('no such endpoint');
      expect((await acme.withToken(null).v2('POST', `/storage/${p}`, {})).status, p).toBe(401);
    }
  });

  it('the v2 OpenAPI document describes each of the 22', async () => {
    const doc = (await acme.v2('GET', '/docs.json')).body as { paths: Record<string, Record<string, unknown>> };
    for (const p of GET) expect(doc.paths[`/storage/${p}`]?.get, p).toBeDefined();
    for (const p of POST) expect(doc.paths[`/storage/${p}`]?.post, p).toBeDefined();
  });
});
