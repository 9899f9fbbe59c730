import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { post } from './support/crm.js';
import { type ApiClient, startTestService, type TestService } from './support/service.js';

/**
 * Bad input on the collection language and on CRM / custom-field writes: a 4xx in
 * the envelope that names the parameter or field (one message per field), and
 * nothing stored or run.
 */
let t: TestService;
let api: ApiClient;
const ids: Record<string, string> = {};

beforeAll(async () => {
  t = await startTestService();
  api = await t.environment('bad');
  ids.org = await post(api, '/crm/organization', { name: 'Bad Input BV' });
  ids.person = await post(api, '/crm/person', { family_name: 'Input' });
  ids.textField = await post(api, '/crm/organizationcustomfields', { name: 'plain', label: 'Plain', type: 'text' });
});
afterAll(() => t?.stop());

async function snapshot(): Promise<string> {
  const rows = await t.db.query(
    `SELECT (SELECT json_agg(o ORDER BY id) FROM organization o) AS orgs, (SELECT json_agg(p ORDER BY id) FROM person p) AS persons,
            (SELECT count(*) FROM contact_person) AS contacts, (SELECT count(*) FROM custom_field) AS fields,
            (SELECT count(*) FROM custom_field_option) AS options, (SELECT count(*) FROM custom_field_value) AS field_values,
            (SELECT count(*) FROM custom_field_group) AS groups, (SELECT count(*) FROM event) AS events`,
  );
  return JSON.stringify(rows);
}

interface Case {
  name: string;
  method: string;
  path: () => string;
  body?: unknown;
  status: number;
  /** fragments the messages must contain, one message each */
  mentions: string[];
}

const get = (name: string, path: string, mention: string): Case => ({
  name,
  method: 'GET',
  path: () => path,
  status: 400,
  mentions: [mention],
});

const cases: Case[] = [
  get('an unknown filter path on a person', '/crm/person?q[colour]=red', 'q[colour]'),
  get('an unknown nested filter path', '/crm/person?q[address.colour]=red', 'q[address.colour]'),
  get('an unknown relation three deep', '/crm/contactperson?q[organization.owner.name]=x', 'q[organization.owner.name]'),
  get('an empty path segment', '/crm/person?q[address..locality]=x', 'q[address..locality]'),
  get('a malformed filter key', '/crm/person?q[name=x', 'q[name'),
  get('an unknown operator', '/crm/person?q[full_name][between]=a', 'between'),
  get('an unknown sort path', '/crm/person?sort=colour', 'sort'),
  get('a sort through a list', '/crm/person?sort=interests.id', 'sort'),
  get('an unknown nested sort path', '/crm/contactperson?sort=organization.colour', 'sort'),
  get('an unparsable date-time', '/crm/person?q[updated_at][ge]=2024-13-01', 'q[updated_at]'),
  get('an impossible date', '/crm/person?q[date_of_birth]=1990-02-30', 'q[date_of_birth]'),
  get('a wildcard on a date-time', '/crm/person?q[created_at]=2024*', 'q[created_at]'),
  get('an operator on a boolean', '/crm/person?q[is_active][ge]=true', 'q[is_active]'),
  get('an empty in list', '/crm/person?q[full_name][in]=', 'q[full_name][in]'),
  get('a limit of zero', '/crm/person?limit=0', 'limit'),
  get('a decimal limit', '/crm/person?limit=1.5', 'limit'),
  get('a negative offset', '/crm/person?offset=-3', 'offset'),
  get('an offset past 2^53', '/crm/person?offset=99999999999999999999', 'offset'),
  get('an unknown metadata value', '/crm/person?metadata=sum', 'metadata'),
  get('a custom-field filter where there are none', '/crm/contactperson?q[custom_fields.plain]=x', 'q[custom_fields.plain]'),
  get('an unknown filter on reference data', '/crm/country?q[capital]=Paris', 'q[capital]'),
  get('an unknown filter on custom-field options', '/customfields/option?q[colour]=x', 'q[colour]'),
  {
    name: 'wrong types on POST crm/person: one message per field',
    method: 'POST',
    path: () => '/crm/person',
    body: { family_name: 5, is_active: 'yes', date_of_birth: 'May 1st', mailing_lists: 'all' },
    status: 400,
    mentions: ['family_name', 'is_active', 'date_of_birth', 'mailing_lists'],
  },
  {
    name: 'a date of birth that is not a calendar date',
    method: 'POST',
    path: () => '/crm/person',
    body: { family_name: 'Leap', date_of_birth: '1990-02-30' },
    status: 400,
    mentions: ['date_of_birth'],
  },
  {
    name: 'a gender outside Male, Female, Unknown',
    method: 'POST',
    path: () => '/crm/person',
    body: { family_name: 'G', gender: 'Other' },
    status: 400,
    mentions: ['gender'],
  },
  {
    name: 'an unknown mailing list on PUT crm/person',
    method: 'PUT',
    path: () => `/crm/person/${ids.person}`,
    body: { mailing_lists: [{ id: 'mailinglist:nope', value: true }] },
    status: 400,
    mentions: ['mailing_lists.0.id'],
  },
  {
    name: 'an unknown interest on PUT crm/person',
    method: 'PUT',
    path: () => `/crm/person/${ids.person}`,
    body: { interests: [{ id: 'interest:nope' }] },
    status: 400,
    mentions: ['interests.0.id'],
  },
  {
    name: 'custom_fields that is not a list',
    method: 'POST',
    path: () => '/crm/organization',
    body: { name: 'CF', custom_fields: { plain: 'x' } },
    status: 400,
    mentions: ['custom_fields'],
  },
  {
    name: 'a debtor provision method that does not exist',
    method: 'PUT',
    path: () => `/crm/organization/${ids.org}`,
    body: { debtor: { provision_method: 'fax' } },
    status: 400,
    mentions: ['debtor.provision_method'],
  },
  {
    name: 'a debtor attention person that does not exist',
    method: 'PUT',
    path: () => `/crm/organization/${ids.org}`,
    body: { debtor: { attention_to_person_id: 'person:nope' } },
    status: 400,
    mentions: ['debtor.attention_to_person_id'],
  },
  {
    name: 'a contact link to a missing person',
    method: 'PUT',
    path: () => `/crm/organization/${ids.org}`,
    body: { linked_persons_contacts: [{ person_id: 'person:nope' }] },
    status: 400,
    mentions: ['linked_persons_contacts.0.person_id'],
  },
  {
    name: 'an option for a field without options',
    method: 'POST',
    path: () => '/customfields/option',
    body: { customfield_id: ids.textField, label: 'X' },
    status: 400,
    mentions: ['customfield_id'],
  },
  {
    name: 'a custom-field name with a space',
    method: 'POST',
    path: () => '/crm/organizationcustomfields',
    body: { name: 'has space', label: 'X', type: 'text' },
    status: 400,
    mentions: ['name'],
  },
  {
    name: 'an unknown custom-field type',
    method: 'POST',
    path: () => '/crm/organizationcustomfields',
    body: { name: 'x', label: 'X', type: 'hologram' },
    status: 400,
    mentions: ['type'],
  },
  {
    name: 'a custom-field name that exists already',
    method: 'POST',
    path: () => '/crm/organizationcustomfields',
    body: { name: 'plain', label: 'Again', type: 'text' },
    status: 409,
    mentions: ['plain'],
  },
  {
    name: 'a custom-field group without a model',
    method: 'POST',
    path: () => '/customfields/group',
    body: { name: 'Lonely' },
    status: 400,
    mentions: ['model'],
  },
  {
    name: 'a person custom field through the organization resource',
    method: 'PUT',
    path: () => '/crm/organizationcustomfields/customfield:nope',
    body: { label: 'X' },
    status: 404,
    mentions: ['customfield'],
  },
  {
    name: 'a contact person that does not exist',
    method: 'PUT',
    path: () => '/crm/contactperson/contactperson:nope',
    body: { is_active: false },
    status: 404,
    mentions: ['contactperson'],
  },
  {
    name: 'a write to read-only reference data',
    method: 'PUT',
    path: () => '/crm/gender/gender:x',
    body: { name: 'X' },
    status: 404,
    mentions: ['no such endpoint'],
  },
];

describe('v2 CRM bad input: a clear 4xx naming the parameter, and nothing changes', () => {
  it.each(cases)('$name → $status', async (c) => {
    const before = await snapshot();
    const res = await api.v2(c.method, c.path(), c.body);
    expect(res.status, res.text).toBe(c.status);
    const body = res.body as { data: unknown; errors: string[]; debug: unknown };
    expect(body).toEqual({ data: null, errors: expect.any(Array), debug: null });
    expect(body.errors).toHaveLength(c.mentions.length);
    for (const m of c.mentions)
      expect(
        body.errors.filter((e) => e.includes(m)),
        m,
      ).not.toEqual([]);
    expect(await snapshot()).toBe(before);
  });

  it('a person custom field is not reachable through crm/organizationcustomfields', async () => {
    const personField = await post(api, '/crm/personcustomfields', { name: 'only_person', label: 'P', type: 'text' });
    expect((await api.v2('GET', `/crm/organizationcustomfields/${personField}`)).status).toBe(404);
    expect((await api.v2('DELETE', `/crm/organizationcustomfields/${personField}`)).status).toBe(404);
    expect((await api.v2('GET', `/crm/personcustomfields/${personField}`)).status).toBe(200);
  });
});
