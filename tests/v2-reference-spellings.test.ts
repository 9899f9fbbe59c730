import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Envelope, post } from './support/crm.js';
import { type ApiClient, startTestService, type TestService } from './support/service.js';
import { databaseFingerprint } from './support/snapshot.js';

/**
 * The reference spells three updates otherwise than `PUT /{id}`: `POST customfields/group/{id}`,
 * `POST customfields/option/{id}`, and `PUT documents/document` on the collection with the id in
 * the body. Each is served beside `PUT /{id}`, with the same rules.
 */
let t: TestService;
let api: ApiClient;

beforeAll(async () => {
  t = await startTestService();
  api = await t.environment('spell');
});
afterAll(() => t?.stop());

async function read<T>(path: string): Promise<T> {
  const res = await api.v2('GET', path);
  expect(res.status, res.text).toBe(200);
  return (res.body as Envelope<T>).data;
}

async function unchanged(run: () => Promise<void>) {
  const strip = async () => {
    const { api_token: _lastUse, ...rest } = await databaseFingerprint(t.db);
    return rest;
  };
  const before = await strip();
  await run();
  expect(await strip()).toEqual(before);
}

describe('the reference spellings of an update', () => {
  it('POST customfields/group/{id} and customfields/option/{id} change what they name', async () => {
    const [model] = await t.db.query<{ id: string }>(
      `SELECT m.id FROM custom_field_model m JOIN environment e ON e.id = m.environment_id WHERE e.name = 'spell' AND m.key = 'organization'`,
    );
    const group = await post(api, '/customfields/group', { name: 'Finance', position: 1, model: { id: model?.id } });
    const res = await api.v2('POST', `/customfields/group/${group}`, { name: 'Money' });
    expect(res.status, res.text).toBe(200);
    expect(await read<{ name: string }>(`/customfields/group/${group}`)).toMatchObject({ name: 'Money' });

    const field = await post(api, '/crm/organizationcustomfields', { name: 'colour', label: 'Colour', type: 'dropdown' });
    const option = await post(api, '/customfields/option', { customfield_id: field, label: 'Red', position: 2 });
    expect((await api.v2('POST', `/customfields/option/${option}`, { label: 'Crimson' })).status).toBe(200);
    expect(await read<{ label: string }>(`/customfields/option/${option}`)).toMatchObject({ label: 'Crimson' });
    // the same rules as PUT: an unknown id is a 404 and changes nothing
    await unchanged(async () => {
      expect((await api.v2('POST', '/customfields/option/customfieldoption:nope', { label: 'x' })).status).toBe(404);
    });
  });

  it('PUT documents/document takes the id in the body; without it: 400 naming id, and nothing changes', async () => {
    const file = Buffer.from('%PDF-1.7\nhello');
    const start = await api.v2('POST', '/upload/chunked', { file_name: 'note.pdf', file_size: file.length });
    const uploadId = (start.body as Envelope<{ chunked_upload_id: string }>).data.chunked_upload_id;
    const chunk = await api.v2('PUT', `/upload/chunked/${encodeURIComponent(uploadId)}`, { chunk: file.toString('base64') });
    const queued = (chunk.body as Envelope<{ upload_queue_id: string }>).data.upload_queue_id;
    const types = await read<{ id: string }[]>('/documents/documenttype');
    const organization = await post(api, '/crm/organization', { name: 'Documented BV' });
    const id = await post(api, '/documents/document', {
      upload_queue_id: queued,
      title: 'First title',
      document_type_id: types[0]?.id,
      linked_to: { organization_id: organization },
    });
    const res = await api.v2('PUT', '/documents/document', { id, title: 'Second title' });
    expect(res.status, res.text).toBe(200);
    expect(await read<{ title: string }>(`/documents/document/${id}`)).toMatchObject({ title: 'Second title' });
    await unchanged(async () => {
      const missing = await api.v2('PUT', '/documents/document', { title: 'No id' });
      expect(missing.status).toBe(400);
      expect((missing.body as Envelope).errors?.[0]).toContain('id');
      expect((await api.v2('PUT', '/documents/document', { id: 'document:nope', title: 'x' })).status).toBe(404);
    });
  });
});
