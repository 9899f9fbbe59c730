import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, startTestService, type TestService } from './support/service.js';

let t: TestService;
let acme: ApiClient;

type Envelope<T = Record<string, unknown>> = { data: T; errors: string[] | null; metadata?: { count: number } };

beforeAll(async () => {
  t = await startTestService();
  acme = await t.environment('acme');
});
afterAll(() => t?.stop());

async function post(path: string, body: unknown): Promise<string> {
  const res = await acme.v2('POST', path, body);
  expect(res.status, res.text).toBe(200);
  return (res.body as Envelope<{ id: string }>).data.id;
}

describe('custom fields on projects/project (contract: custom_fields on projects reads; filters on projects/project)', () => {
  it('values written on POST and PUT are read back with display_value in v2 and as customFields in v3', async () => {
    const field = await post('/projects/projectcustomfields', { name: 'sector', label: 'Sector', type: 'dropdown' });
    await post('/customfields/option', { customfield_id: field, label: 'Public sector', value: 'gov' });
    const id = await post('/projects/project', { name: 'Ministry portal', custom_fields: [{ name: 'sector', value: 'gov' }] });
    const v2 = (await acme.v2('GET', `/projects/project/${id}`)).body as Envelope<{ custom_fields: Record<string, unknown>[] }>;
    expect(v2.data.custom_fields.find((f) => f.name === 'sector')).toMatchObject({
      value: 'gov',
      display_value: 'Public sector',
    });
    const v3 = (await acme.v3('GET', `/project.get/${encodeURIComponent(id)}`)).body as { customFields: unknown[] };
    expect(v3.customFields).toContainEqual({ name: 'sector', value: 'gov' });

    const put = await acme.v2('PUT', `/projects/project/${id}`, { custom_fields: [{ name: 'sector', value: null }] });
    expect(put.status, put.text).toBe(200);
    const after = (await acme.v2('GET', `/projects/project/${id}`)).body as Envelope<{
      custom_fields: Record<string, unknown>[];
    }>;
    expect(after.data.custom_fields.find((f) => f.name === 'sector')).toMatchObject({ value: null, display_value: null });
  });

  it('q[custom_fields.<name>] filters projects, with wildcards and null', async () => {
    await post('/projects/projectcustomfields', { name: 'region', label: 'Region', type: 'text' });
    const north = await post('/projects/project', {
      name: 'North office',
      custom_fields: [{ name: 'region', value: 'North-West' }],
    });
    const south = await post('/projects/project', { name: 'South office', custom_fields: [{ name: 'region', value: 'South' }] });
    const none = await post('/projects/project', { name: 'No region' });
    const ids = async (q: string) =>
      ((await acme.v2('GET', `/projects/project?${q}`)).body as Envelope<{ id: string }[]>).data.map((p) => p.id);
    expect(await ids('q[custom_fields.region]=South')).toEqual([south]);
    expect(await ids('q[custom_fields.region]=north*')).toEqual([north]);
    const nulls = await ids('q[custom_fields.region]=null');
    expect(nulls).toContain(none);
    expect(nulls).not.toContain(north);
  });

  it('a mandatory project custom field is required on POST and cannot be emptied on PUT; nothing is stored', async () => {
    await post('/projects/projectcustomfields', { name: 'cost_centre', label: 'Cost centre', type: 'text', mandatory: true });
    const before = await t.db.query('SELECT count(*)::int AS n FROM project');
    const missing = await acme.v2('POST', '/projects/project', { name: 'No cost centre' });
    expect(missing.status).toBe(400);
    expect((missing.body as Envelope).errors?.join(' ')).toContain('cost_centre');
    expect(await t.db.query('SELECT count(*)::int AS n FROM project')).toEqual(before);
    const id = await post('/projects/project', {
      name: 'With cost centre',
      custom_fields: [{ name: 'cost_centre', value: 'CC-1' }],
    });
    const emptied = await acme.v2('PUT', `/projects/project/${id}`, { custom_fields: [{ name: 'cost_centre', value: null }] });
    expect(emptied.status).toBe(400);
  });

  it('deleting a project removes its custom-field values', async () => {
    await post('/projects/projectcustomfields', { name: 'temporary', label: 'Temporary', type: 'text' });
    const id = await post('/projects/project', {
      name: 'Short lived',
      custom_fields: [
        { name: 'temporary', value: 'x' },
        { name: 'cost_centre', value: 'CC-2' },
      ],
    });
    expect((await acme.v2('DELETE', `/projects/project/${id}`)).status).toBe(200);
    expect(await t.db.query('SELECT count(*)::int AS n FROM custom_field_value WHERE entity_id = $1', [id])).toEqual([{ n: 0 }]);
  });

  it('custom-field filters are refused with a clear 400 on hrm/employee (contract: not supported there)', async () => {
    const res = await acme.v2('GET', '/hrm/employee?q[custom_fields.region]=North');
    expect(res.status).toBe(400);
    expect((res.body as Envelope).errors?.join(' ')).toContain('custom-field filters are not supported');
  });
});
