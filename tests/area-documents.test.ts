import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractValidator } from './support/contract.js';
import { type Envelope, list, post } from './support/crm.js';
import { type ApiClient, startTestService, type TestService } from './support/service.js';
import { databaseFingerprint } from './support/snapshot.js';

/**
 * crm/document, projects/document and sales/document: per-area views of the one
 * document store (issue 14 "remaining reference paths", issue 12 sales document).
 * Each lists only documents linked to its area's entities, writes with the
 * reference's PostDocument/PutDocument (PUT on the collection, id in the body),
 * and never links a document to an entity outside its area.
 */

const { conforms } = contractValidator();

let t: TestService;
let acme: ApiClient;
let other: ApiClient;
const ids: Record<string, string> = {};

async function uploadQueueId(client: ApiClient, fileName: string, text: string): Promise<string> {
  const bytes = Buffer.from(text);
  const started = await client.v2('POST', '/upload/chunked', { file_name: fileName, file_size: bytes.length });
  expect(started.status, started.text).toBe(200);
  const chunkedId = (started.body as Envelope<{ chunked_upload_id: string }>).data.chunked_upload_id;
  const done = await client.v2('PUT', `/upload/chunked/${encodeURIComponent(chunkedId)}`, { chunk: bytes.toString('base64') });
  expect(done.status, done.text).toBe(200);
  return (done.body as Envelope<{ upload_queue_id: string }>).data.upload_queue_id;
}

beforeAll(async () => {
  t = await startTestService();
  acme = await t.environment('acme');
  other = await t.environment('other');
  ids.org = await post(acme, '/crm/organization', { name: 'Docs BV' });
  ids.person = await post(acme, '/crm/person', { first_name: 'Dora', family_name: 'Docs' });
  ids.project = await post(acme, '/projects/project', { name: 'Documented' });
  ids.sale = await post(acme, '/sales/sales', { subject: 'Documented sale', organization_id: ids.org });
  ids.otherOrg = await post(other, '/crm/organization', { name: 'Elsewhere' });
  ids.otherProject = await post(other, '/projects/project', { name: 'Elsewhere' });
  ids.otherSale = await post(other, '/sales/sales', { subject: 'Elsewhere', organization_id: ids.otherOrg });
});
afterAll(() => t?.stop());

const AREAS = [
  {
    area: 'crm',
    link: () => ({ organization_id: ids.org }),
    wrong: () => ({ project_id: ids.project }),
    foreign: () => ({ organization_id: ids.otherOrg }),
    flag: 'is_for_crm',
  },
  {
    area: 'projects',
    link: () => ({ project_id: ids.project }),
    wrong: () => ({ sales_id: ids.sale }),
    foreign: () => ({ project_id: ids.otherProject }),
    flag: 'is_for_project',
  },
  {
    area: 'sales',
    link: () => ({ sales_id: ids.sale }),
    wrong: () => ({ organization_id: ids.org }),
    foreign: () => ({ sales_id: ids.otherSale }),
    flag: 'is_for_sale',
  },
] as const;

describe.each(AREAS)('$area/document: the area view of the document store', ({ area, link, wrong, foreign, flag }) => {
  it(`${area}/document: POST (PostDocument) stores a document linked in the area; GET lists and reads it (GetDocument)`, async () => {
    const id = await post(acme, `/${area}/document`, {
      title: `${area} plan`,
      upload_queue_id: await uploadQueueId(acme, `${area}.txt`, `${area} bytes`),
      linked_to: [link()],
    });
    const docs = await list<Record<string, unknown>>(acme, `/${area}/document`);
    expect(docs.map((d) => d.id)).toContain(id);
    const one = (await acme.v2('GET', `/${area}/document/${id}`)).body as Envelope<Record<string, unknown>>;
    expect(one.data).toMatchObject({ id, title: `${area} plan`, file_name: `${area}.txt` });
    conforms('GetDocument', one.data);
    // the same row through the document store
    expect((await acme.v2('GET', `/documents/document/${id}`)).status).toBe(200);
  });

  it(`${area}/document: PUT on the collection with the id in the body (PutDocument) changes the title`, async () => {
    const id = await post(acme, `/${area}/document`, {
      title: 'Before',
      upload_queue_id: await uploadQueueId(acme, 'put.txt', 'put'),
      linked_to: [link()],
    });
    const res = await acme.v2('PUT', `/${area}/document`, { id, title: 'After' });
    expect(res.status, res.text).toBe(200);
    const read = (await acme.v2('GET', `/${area}/document/${id}`)).body as Envelope<Record<string, unknown>>;
    expect(read.data.title).toBe('After');
  });

  it(`${area}/document: a link outside the area, or to another environment's entity, is refused with 400 and stores nothing`, async () => {
    const upload = await uploadQueueId(acme, 'refused.txt', 'refused');
    const before = await databaseFingerprint(t.db);
    const outside = await acme.v2('POST', `/${area}/document`, { title: 'x', upload_queue_id: upload, linked_to: [wrong()] });
    expect(outside.status, outside.text).toBe(400);
    expect(JSON.stringify((outside.body as Envelope).errors)).toMatch(/linked/);
    const elsewhere = await acme.v2('POST', `/${area}/document`, { title: 'x', upload_queue_id: upload, linked_to: [foreign()] });
    expect(elsewhere.status, elsewhere.text).toBe(400);
    expect(await databaseFingerprint(t.db)).toEqual(before);
  });

  it(`${area}/document: a document of another area is not found here, and DELETE removes one of this area`, async () => {
    const otherArea = AREAS.find((a) => a.area !== area) as (typeof AREAS)[number];
    const elsewhere = await post(acme, `/${otherArea.area}/document`, {
      title: 'Elsewhere',
      upload_queue_id: await uploadQueueId(acme, 'elsewhere.txt', 'elsewhere'),
      linked_to: [otherArea.link()],
    });
    expect((await acme.v2('GET', `/${area}/document/${elsewhere}`)).status).toBe(404);
    expect((await acme.v2('DELETE', `/${area}/document/${elsewhere}`)).status).toBe(404);
    expect((await acme.v2('GET', `/documents/document/${elsewhere}`)).status).toBe(200);
    const mine = await post(acme, `/${area}/document`, {
      title: 'Mine',
      upload_queue_id: await uploadQueueId(acme, 'mine.txt', 'mine'),
      linked_to: [link()],
    });
    expect((await acme.v2('DELETE', `/${area}/document/${mine}`)).status).toBe(200);
    expect((await acme.v2('GET', `/${area}/document/${mine}`)).status).toBe(404);
  });

  it(`${area}/documenttype: only the types meant for the area or visible on all (GetDocumentType)`, async () => {
    const types = await list<Record<string, unknown>>(acme, `/${area}/documenttype`);
    expect(types.length).toBeGreaterThan(0);
    for (const d of types) {
      expect(Boolean(d[flag]) || d.is_visible_on_all || (area === 'crm' && (d.is_for_contact || d.is_for_debtor))).toBe(true);
      conforms('GetDocumentType', d);
    }
    const all = await list<Record<string, unknown>>(acme, '/documents/documenttype');
    expect(all.length).toBeGreaterThan(types.length);
  });
});

it('crm/document lists the documents of persons too, filtered on linked_to', async () => {
  const id = await post(acme, '/crm/document', {
    title: 'Passport copy',
    upload_queue_id: await uploadQueueId(acme, 'p.txt', 'p'),
    linked_to: [{ person_id: ids.person }],
  });
  const docs = await list<Record<string, unknown>>(
    acme,
    `/crm/document?q[linked_to.person_id]=${encodeURIComponent(ids.person as string)}`,
  );
  expect(docs.map((d) => d.id)).toEqual([id]);
});
