import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mountedResources as resources } from '@bo/api-v2';
import { contractValidator, referenceContract } from './support/contract.js';
import { type Envelope, list, post, referenceId } from './support/crm.js';
import { type ApiClient, startTestService, type TestService } from './support/service.js';

/**
 * Every response of the CRM, custom-field and sales resources, lists and single reads,
 * validated against the reference definition (../shared/reference/v2-contract.json):
 * every field the definition names must be present (null where there is no value),
 * with the definition's type.
 */
type Schema = Record<string, unknown>;
const contract = referenceContract;
const { validatorFor } = contractValidator();

/** crm/foo → the item definition its GET returns, from the reference paths. */
function definitionOf(resource: string): string {
  const ref = contract.paths[`/${resource}`]?.get?.responses?.['200']?.schema?.$ref;
  // crm/myorganization is newer than the reference: it lists company profiles
  if (!ref) return resource === 'crm/myorganization' ? 'MyOrganizationProfile' : '';
  const result = contract.definitions[ref.replace('#/definitions/', '')] as { properties: { data: Schema } };
  const data = result.properties.data;
  const item = (data.items as Schema | undefined)?.$ref ?? data.$ref;
  return String(item).replace('#/definitions/', '');
}

const ours = resources
  .map((r) => r.name)
  .filter((n) => n.startsWith('crm/') || n.startsWith('customfields/') || n.startsWith('sales/'));

let t: TestService;
let api: ApiClient;

beforeAll(async () => {
  t = await startTestService();
  api = await t.environment('conf');
  const env = (await t.db.query<{ id: string }>(`SELECT id FROM environment WHERE name = 'conf'`))[0]?.id;
  // a relation manager: HRM owns employees, so one is put in place directly
  await t.db.query(
    `INSERT INTO employee (id, environment_id, name, work_email, updated_at) VALUES ('employee:conf1', $1, 'Erik Manager', 'erik@conf.test', now())`,
    [env],
  );
  const models = await list<{ id: string; label: string }>(api, '/customfields/model');
  const personModel = models.find((m) => m.label === 'Person')?.id;
  const orgModel = models.find((m) => m.label === 'Organization')?.id;
  const orgGroup = await post(api, '/customfields/group', { name: 'Org group', model: { id: orgModel } });
  const personGroup = await post(api, '/customfields/group', { name: 'Person group', model: { id: personModel } });
  const tier = await post(api, '/crm/organizationcustomfields', {
    name: 'tier',
    label: 'Tier',
    type: 'dropdown',
    custom_field_group_id: orgGroup,
  });
  await post(api, '/customfields/option', { customfield_id: tier, label: 'Gold', value: 'gold' });
  await post(api, '/crm/organizationcustomfields', { name: 'note2', label: 'Second note', type: 'text' });
  await post(api, '/crm/personcustomfields', { name: 'born', label: 'Born', type: 'date', custom_field_group_id: personGroup });
  const interest = await referenceId(t, 'conf', 'interest', `r.name = 'Events'`);
  const mailing = await referenceId(t, 'conf', 'mailing_list', `r.name = 'Newsletter'`);
  const relationType = await referenceId(t, 'conf', 'relation_type', `r.label = 'Relationtype_customer'`);
  const org = await post(api, '/crm/organization', {
    name: 'Conformance BV',
    relation_type: { id: relationType },
    relation_manager: { id: 'employee:conf1' },
    visiting_address: { line_1: 'Main 1', locality: 'Utrecht', country_code: 'NL' },
    interests: [{ id: interest }],
    debtor: { provision_method: 'email', attention_to: 'contact' },
    custom_fields: [{ name: 'tier', value: 'gold' }],
  });
  await post(api, '/crm/organization', { name: 'Bare BV' });
  await post(api, '/crm/person', {
    first_name: 'Conny',
    family_name: 'Formance',
    gender: 'Female',
    date_of_birth: '1990-05-17',
    relation_manager: { id: 'employee:conf1' },
    address: { line_1: 'Side 2', locality: 'Zeist' },
    interests: [{ id: interest }],
    mailing_lists: [{ id: mailing, value: true }],
    linked_as_contact_to_organization: [{ organization_id: org, work_function: 'Tester' }],
    custom_fields: [{ name: 'born', value: '1990-05-17' }],
  });
  const bare = await post(api, '/crm/person', { family_name: 'Bare' });
  // sales: one with everything the shape shows filled in, one bare
  const saleModel = models.find((m) => m.label === 'Sale')?.id;
  const saleGroup = await post(api, '/customfields/group', { name: 'Sale group', model: { id: saleModel } });
  await post(api, '/sales/salescustomfields', { name: 'deal', label: 'Deal', type: 'text', custom_field_group_id: saleGroup });
  const project = await post(api, '/projects/project', { name: 'Linked project', project_number: 'P-1' });
  await post(api, '/sales/sales', {
    subject: 'Conformance sale',
    organization_id: org,
    responsible_employee_id: 'employee:conf1',
    start_date: '2026-01-01',
    expected_closing_date: '2026-02-01',
    expected_revenue: 1000.5,
    chance_to_score: 50,
    note: 'Note',
    linked_project_ids: [project],
    custom_fields: [{ name: 'deal', value: 'big' }],
  });
  await post(api, '/sales/sales', { subject: 'Bare sale', person_id: bare });
});
afterAll(() => t?.stop());

describe('responses match the reference definitions', () => {
  it('every CRM and custom-field resource has a reference definition', () => {
    expect(ours.length).toBeGreaterThanOrEqual(21);
    for (const name of ours) expect(definitionOf(name), name).not.toBe('');
  });

  for (const name of ours) {
    it(`${name}: list and single read`, async () => {
      const validate = validatorFor(definitionOf(name));
      const res = await api.v2('GET', `/${name}?limit=10`);
      expect(res.status, res.text).toBe(200);
      const body = res.body as Envelope<Record<string, unknown>[]>;
      expect(Object.keys(body).sort()).toEqual(['data', 'debug', 'errors']);
      expect(body.data.length, `${name} has rows to check`).toBeGreaterThan(0);
      for (const item of body.data) {
        expect(validate(item) ? [] : validate.errors, `${name} list item ${JSON.stringify(item).slice(0, 200)}`).toEqual([]);
      }
      const first = body.data[0] as { id: string };
      const single = await api.v2('GET', `/${name}/${encodeURIComponent(first.id)}`);
      expect(single.status, single.text).toBe(200);
      const one = (single.body as Envelope).data;
      expect(validate(one) ? [] : validate.errors, `${name} single`).toEqual([]);
      expect(one).toEqual(first);
    });
  }
});
