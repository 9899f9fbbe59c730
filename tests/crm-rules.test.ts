import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Envelope, list, post, referenceId } from './support/crm.js';
import { type ApiClient, startTestService, type TestService } from './support/service.js';

/** The CRM rules of the v2 change history, one test each. */
let t: TestService;
let crm: ApiClient;

beforeAll(async () => {
  t = await startTestService();
  crm = await t.environment('crm');
});
afterAll(() => t?.stop());

async function get(path: string): Promise<Record<string, unknown>> {
  const res = await crm.v2('GET', path);
  expect(res.status, res.text).toBe(200);
  return (res.body as Envelope).data;
}

describe('crm/person', () => {
  it('family_name is mandatory on POST crm/person', async () => {
    const res = await crm.v2('POST', '/crm/person', { first_name: 'No Family' });
    expect(res.status).toBe(400);
    expect((res.body as Envelope).errors).toEqual([expect.stringContaining('family_name')]);
    const blank = await crm.v2('POST', '/crm/person', { first_name: 'Blank', family_name: '  ' });
    expect(blank.status).toBe(400);
  });

  it('family_name is not mandatory on PUT crm/person/{id}: left out, it keeps its value', async () => {
    const id = await post(crm, '/crm/person', { first_name: 'Kees', family_name: 'Jansen' });
    const put = await crm.v2('PUT', `/crm/person/${id}`, { first_name: 'Cees' });
    expect(put.status, put.text).toBe(200);
    expect(await get(`/crm/person/${id}`)).toMatchObject({ first_name: 'Cees', family_name: 'Jansen', full_name: 'Cees Jansen' });
  });

  it('full_name is made the same on POST and on PUT: each name trimmed of any white space, empty ones left out', async () => {
    const id = await post(crm, '/crm/person', {
      first_name: ' Anna\u2003',
      family_name_prefix: '\u00a0\t',
      family_name: 'Berg\n',
    });
    expect(await get(`/crm/person/${id}`)).toMatchObject({ full_name: 'Anna Berg' });
    // the PUT names one name; the others are taken as stored
    const put = await crm.v2('PUT', `/crm/person/${id}`, { family_name_prefix: '\ufeff van\u3000' });
    expect(put.status, put.text).toBe(200);
    expect(await get(`/crm/person/${id}`)).toMatchObject({ full_name: 'Anna van Berg' });
    const cleared = await crm.v2('PUT', `/crm/person/${id}`, { first_name: null, family_name_prefix: ' ' });
    expect(cleared.status, cleared.text).toBe(200);
    expect(await get(`/crm/person/${id}`)).toMatchObject({ full_name: 'Berg' });
  });

  it('is_active on person: defaults to true, PUT can switch it, and it filters', async () => {
    const id = await post(crm, '/crm/person', { family_name: 'Active' });
    expect((await get(`/crm/person/${id}`)).is_active).toBe(true);
    await crm.v2('PUT', `/crm/person/${id}`, { is_active: false });
    expect((await get(`/crm/person/${id}`)).is_active).toBe(false);
    const inactive = await list<{ id: string }>(crm, '/crm/person?q[is_active]=false');
    expect(inactive.map((p) => p.id)).toContain(id);
  });

  it('relation_number on person and organization: written, read and filterable', async () => {
    const person = await post(crm, '/crm/person', { family_name: 'Numbered', relation_number: 'P-77' });
    const org = await post(crm, '/crm/organization', { name: 'Numbered BV', relation_number: 'O-77' });
    expect((await get(`/crm/person/${person}`)).relation_number).toBe('P-77');
    expect((await list<{ id: string }>(crm, '/crm/organization?q[relation_number]=O-77')).map((o) => o.id)).toEqual([org]);
  });

  it('the custom salutation fields on person: use_custom_salutation and custom_salutation', async () => {
    const id = await post(crm, '/crm/person', {
      family_name: 'Salute',
      use_custom_salutation: true,
      custom_salutation: 'Dear Dr. Salute',
    });
    expect(await get(`/crm/person/${id}`)).toMatchObject({ use_custom_salutation: true, custom_salutation: 'Dear Dr. Salute' });
    const wrong = await crm.v2('POST', '/crm/person', { family_name: 'X', use_custom_salutation: 'yes' });
    expect(wrong.status).toBe(400);
    expect((wrong.body as Envelope).errors?.[0]).toContain('use_custom_salutation');
  });

  it("a person's mailing lists are readable on GET crm/person/{id} and added or removed through the person write endpoints", async () => {
    const newsletter = await referenceId(t, 'crm', 'mailing_list', `r.name = 'Newsletter'`);
    const events = await referenceId(t, 'crm', 'mailing_list', `r.name = 'Customer events'`);
    const id = await post(crm, '/crm/person', { family_name: 'Mailer', mailing_lists: [{ id: newsletter, value: true }] });
    const lists = async () =>
      Object.fromEntries(
        ((await get(`/crm/person/${id}`)).mailing_lists as { id: string; value: boolean }[]).map((l) => [l.id, l.value]),
      );
    expect(await lists()).toEqual({ [newsletter]: true, [events]: false });
    await crm.v2('PUT', `/crm/person/${id}`, {
      mailing_lists: [
        { id: newsletter, value: false },
        { id: events, value: true },
      ],
    });
    expect(await lists()).toEqual({ [newsletter]: false, [events]: true });
  });
});

describe('contacts', () => {
  it('is_active on contact person; inactive linked contacts are not returned on person and organization reads', async () => {
    const org = await post(crm, '/crm/organization', { name: 'Contacts BV' });
    const active = await post(crm, '/crm/person', {
      family_name: 'Stays',
      linked_as_contact_to_organization: [{ organization_id: org, work_function: 'CTO' }],
    });
    const leaving = await post(crm, '/crm/person', { family_name: 'Leaves' });
    const link = await post(crm, '/crm/contactperson', { organization_id: org, person_id: leaving, work_email: 'l@x.test' });
    expect((await get(`/crm/contactperson/${link}`)).is_active).toBe(true);
    expect(((await get(`/crm/organization/${org}`)).linked_persons_contacts as unknown[]).length).toBe(2);

    await crm.v2('PUT', `/crm/contactperson/${link}`, { is_active: false });
    expect((await get(`/crm/contactperson/${link}`)).is_active).toBe(false);
    const orgRead = await get(`/crm/organization/${org}`);
    expect((orgRead.linked_persons_contacts as { person_id: string }[]).map((c) => c.person_id)).toEqual([active]);
    expect((await get(`/crm/person/${leaving}`)).linked_as_contact_to_organization).toEqual([]);
    expect((await get(`/crm/person/${active}`)).linked_as_contact_to_organization).toEqual([
      expect.objectContaining({ organization_id: org, name: 'Contacts BV', work_function: 'CTO', is_active: true }),
    ]);
    // the contact person resource itself still lists the inactive link, filterable on is_active
    const all = await list<{ id: string }>(crm, `/crm/contactperson?q[organization.id]=${org}&q[is_active]=false`);
    expect(all.map((c) => c.id)).toEqual([link]);
  });
});

describe('crm/organization', () => {
  it('is_active on organization', async () => {
    const id = await post(crm, '/crm/organization', { name: 'Inactive BV', is_active: false });
    expect((await get(`/crm/organization/${id}`)).is_active).toBe(false);
  });

  it('the send_invoice_email_to_* booleans are written and read, at the top level and in debtor', async () => {
    const id = await post(crm, '/crm/organization', {
      name: 'Invoices BV',
      send_invoice_email_to_contact: true,
      debtor: { send_invoice_email_to_cc: true, provision_method: 'email', cc: ['a@b.test'] },
    });
    const o = await get(`/crm/organization/${id}`);
    expect(o).toMatchObject({
      send_invoice_email_to_contact: true,
      send_invoice_email_to_project_contact: false,
      send_invoice_email_to_fixed_email: false,
      send_invoice_email_to_cc: true,
      debtor: {
        send_invoice_email_to_contact: true,
        send_invoice_email_to_cc: true,
        provision_method: 'email',
        cc: ['a@b.test'],
      },
    });
    const wrong = await crm.v2('PUT', `/crm/organization/${id}`, { send_invoice_email_to_fixed_email: 'no' });
    expect(wrong.status).toBe(400);
    expect((wrong.body as Envelope).errors?.[0]).toContain('send_invoice_email_to_fixed_email');
  });

  it('an update of debtor settings changes the ones it names and keeps the others', async () => {
    const id = await post(crm, '/crm/organization', {
      name: 'Debtor Kept BV',
      debtor: { provision_method: 'email', cc: ['a@b.test'], attention_to_fixed: 'Finance' },
    });
    const put = await crm.v2('PUT', `/crm/organization/${id}`, { debtor: { attention_to_fixed: 'Accounts', cc: [] } });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(await get(`/crm/organization/${id}`)).toMatchObject({
      debtor: { provision_method: 'email', cc: [], attention_to_fixed: 'Accounts' },
    });
    // an update without debtor settings leaves them as they are
    expect((await crm.v2('PUT', `/crm/organization/${id}`, { email: 'kept@example.com' })).status).toBe(200);
    expect(await get(`/crm/organization/${id}`)).toMatchObject({
      email: 'kept@example.com',
      debtor: { provision_method: 'email', cc: [], attention_to_fixed: 'Accounts' },
    });
  });

  it('an organization whose debtor settings were never written reads their defaults (autocollect as its allow_autocollect, reminders on, nothing else set), in v2 single reads and in list pages with select (v3 shows no debtor)', async () => {
    const unset = (autocollect: boolean) => ({
      provision_method: null,
      provision_contactperson_id: null,
      send_email_email: null,
      cc: [],
      attention_to: null,
      attention_to_person_id: null,
      attention_to_fixed: null,
      autocollect,
      reminders: true,
      send_email_type: null,
      autosend_subscription_invoice: false,
    });
    for (const autocollect of [true, false]) {
      const id = await post(crm, '/crm/organization', { name: `Never Set ${autocollect} BV`, allow_autocollect: autocollect });
      expect((await get(`/crm/organization/${id}`)).debtor).toMatchObject(unset(autocollect));
      const listed = await crm.v2('GET', `/crm/organization?q[id]=${encodeURIComponent(id)}&select=debtor`);
      expect(listed.status, listed.text).toBe(200);
      expect((listed.body as Envelope<Record<string, unknown>[]>).data[0]?.debtor).toMatchObject(unset(autocollect));
      // once a setting is written the others keep their defaults, and autocollect follows allow_autocollect still
      const put = await crm.v2('PUT', `/crm/organization/${id}`, { debtor: { attention_to_fixed: 'Finance' } });
      expect(put.status, put.text).toBe(200);
      expect((await get(`/crm/organization/${id}`)).debtor).toMatchObject({
        ...unset(autocollect),
        attention_to_fixed: 'Finance',
      });
    }
  });

  it('interests on organization: the set named on write is read back', async () => {
    const events = await referenceId(t, 'crm', 'interest', `r.name = 'Events'`);
    const id = await post(crm, '/crm/organization', { name: 'Interested BV', interests: [{ id: events }] });
    expect((await get(`/crm/organization/${id}`)).interests).toEqual([expect.objectContaining({ id: events, name: 'Events' })]);
    expect((await list<{ id: string }>(crm, `/crm/organization?q[interests.id]=${events}`)).map((o) => o.id)).toEqual([id]);
  });

  it('referencing a non-existent entity in a write answers 400 and stores nothing', async () => {
    const before = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM organization');
    const res = await crm.v2('POST', '/crm/organization', {
      name: 'Dangling BV',
      relation_type: { id: 'relationtype:missing' },
      relation_manager: { id: 'employee:missing' },
    });
    expect(res.status).toBe(400);
    expect((res.body as Envelope).errors).toEqual([
      expect.stringContaining('relation_type.id'),
      expect.stringContaining('relation_manager.id'),
    ]);
    const person = await crm.v2('POST', '/crm/person', {
      family_name: 'Dangling',
      linked_as_contact_to_organization: [{ organization_id: 'organization:missing' }],
    });
    expect(person.status).toBe(400);
    expect((person.body as Envelope).errors?.[0]).toContain('linked_as_contact_to_organization.0.organization_id');
    const contact = await crm.v2('POST', '/crm/contactperson', { organization_id: 'organization:x', person_id: 'person:y' });
    expect(contact.status).toBe(400);
    expect(await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM organization')).toEqual(before);
  });
});

describe('company profiles', () => {
  it('main_profile on myorganizationprofile: each environment starts with one, and there is only ever one', async () => {
    const profiles = await list<{ id: string; main_profile: boolean }>(crm, '/crm/myorganizationprofile');
    expect(profiles.filter((p) => p.main_profile)).toHaveLength(1);
    const second = await post(crm, '/crm/myorganizationprofile', { name: 'Second BV', main_profile: true });
    const after = await list<{ id: string; main_profile: boolean }>(crm, '/crm/myorganizationprofile?q[main_profile]=true');
    expect(after.map((p) => p.id)).toEqual([second]);
    expect(await get(`/crm/myorganizationprofile/${second}`)).toMatchObject({ name: 'Second BV', main_profile: true });
  });

  it('crm/myorganization lists only the company profiles the user may access', async () => {
    const restricted = await post(crm, '/crm/myorganizationprofile', { name: 'Restricted BV' });
    const other = await t.user('crm', 'other@crm.test', { crm: 'read' });
    const users = await t.db.query<{ id: string; email: string }>(
      `SELECT u.id, u.email FROM user_account u JOIN environment e ON e.id = u.environment_id WHERE e.name = 'crm'`,
    );
    const owner = users.find((u) => u.email !== 'other@crm.test');
    const env = await t.db.query<{ environment_id: string }>('SELECT environment_id FROM my_organization_profile WHERE id = $1', [
      restricted,
    ]);
    await t.db.query('INSERT INTO my_organization_profile_access (environment_id, profile_id, user_id) VALUES ($1, $2, $3)', [
      env[0]?.environment_id,
      restricted,
      owner?.id,
    ]);
    const mine = await list<{ name: string }>(crm, '/crm/myorganization');
    const theirs = await list<{ name: string }>(other, '/crm/myorganization');
    expect(mine.map((p) => p.name)).toContain('Restricted BV');
    expect(theirs.map((p) => p.name)).not.toContain('Restricted BV');
    expect(theirs.length).toBe(mine.length - 1);
    expect((await other.v2('GET', `/crm/myorganization/${restricted}`)).status).toBe(404);
    // the profile resource itself shows every profile
    expect((await list<{ name: string }>(other, '/crm/myorganizationprofile')).map((p) => p.name)).toContain('Restricted BV');
  });
});

describe('custom fields', () => {
  it('mandatory custom fields are enforced on write: required on POST, cannot be emptied on PUT', async () => {
    await post(crm, '/crm/personcustomfields', { name: 'badge', label: 'Badge', type: 'integer', mandatory: true });
    const missing = await crm.v2('POST', '/crm/person', { family_name: 'NoBadge' });
    expect(missing.status).toBe(400);
    expect((missing.body as Envelope).errors).toEqual(['custom_fields.badge: This value is required.']);
    const wrongType = await crm.v2('POST', '/crm/person', { family_name: 'Bad', custom_fields: [{ name: 'badge', value: 'x' }] });
    expect(wrongType.status).toBe(400);
    expect((wrongType.body as Envelope).errors?.[0]).toContain('not a whole number');
    const id = await post(crm, '/crm/person', { family_name: 'Badged', custom_fields: [{ name: 'badge', value: 42 }] });
    const emptied = await crm.v2('PUT', `/crm/person/${id}`, { custom_fields: [{ name: 'badge', value: null }] });
    expect(emptied.status).toBe(400);
    expect((await crm.v2('PUT', `/crm/person/${id}`, { note: 'no custom fields named' })).status).toBe(200);
    const fields = (await get(`/crm/person/${id}`)).custom_fields as { name: string; value: string; mandatory: boolean }[];
    expect(fields.find((f) => f.name === 'badge')).toMatchObject({ value: '42', mandatory: true });
    await t.db.query(`UPDATE custom_field SET mandatory = false WHERE name = 'badge'`);
  });

  it('custom fields on reads carry display_value: the option label of an option field', async () => {
    const field = await post(crm, '/crm/organizationcustomfields', { name: 'size_class', label: 'Size', type: 'radio' });
    await post(crm, '/customfields/option', { customfield_id: field, label: 'Large company', value: 'L' });
    const id = await post(crm, '/crm/organization', { name: 'Display BV', custom_fields: [{ name: 'size_class', value: 'L' }] });
    const fields = (await get(`/crm/organization/${id}`)).custom_fields as Record<string, unknown>[];
    expect(fields.find((f) => f.name === 'size_class')).toMatchObject({
      value: 'L',
      display_value: 'Large company',
      type: 'radio',
      options: [expect.objectContaining({ label: 'Large company', value: 'L' })],
    });
    const notAnOption = await crm.v2('PUT', `/crm/organization/${id}`, { custom_fields: [{ name: 'size_class', value: 'XL' }] });
    expect(notAnOption.status).toBe(400);
    const unknown = await crm.v2('PUT', `/crm/organization/${id}`, { custom_fields: [{ name: 'nope', value: '1' }] });
    expect(unknown.status).toBe(400);
    expect((unknown.body as Envelope).errors?.[0]).toContain('no custom field named "nope"');
  });

  it('POST /customfields/option takes customfield_id', async () => {
    const field = await post(crm, '/crm/organizationcustomfields', { name: 'colour', label: 'Colour', type: 'dropdown' });
    const option = await post(crm, '/customfields/option', { customfield_id: field, label: 'Red', position: 2 });
    expect(await get(`/customfields/option/${option}`)).toEqual({ id: option, label: 'Red', value: 'Red', position: 2 });
    expect((await list<{ id: string }>(crm, `/customfields/option?q[customfield_id]=${field}`)).map((o) => o.id)).toEqual([
      option,
    ]);
    const missing = await crm.v2('POST', '/customfields/option', { label: 'Blue' });
    expect(missing.status).toBe(400);
    expect((missing.body as Envelope).errors?.[0]).toContain('customfield_id');
    const dangling = await crm.v2('POST', '/customfields/option', { customfield_id: 'customfield:missing', label: 'Blue' });
    expect(dangling.status).toBe(400);
  });

  it('organization and person custom fields are listed apart, each with its groups', async () => {
    const models = await list<{ id: string; label: string }>(crm, '/customfields/model');
    const organizationModel = models.find((m) => m.label === 'Organization');
    const group = await post(crm, '/customfields/group', { name: 'Finance', position: 1, model: { id: organizationModel?.id } });
    await post(crm, '/crm/organizationcustomfields', {
      name: 'budget',
      label: 'Budget',
      type: 'decimal',
      custom_field_group_id: group,
    });
    const orgFields = await list<{ name: string }>(crm, '/crm/organizationcustomfields');
    const personFields = await list<{ name: string }>(crm, '/crm/personcustomfields');
    expect(orgFields.map((f) => f.name)).toContain('budget');
    expect(personFields.map((f) => f.name)).not.toContain('budget');
    expect((await list<{ id: string }>(crm, '/crm/organizationcustomfieldgroups')).map((g) => g.id)).toEqual([group]);
    expect(await list(crm, '/crm/personcustomfieldgroups')).toEqual([]);
    expect((await get(`/customfields/group/${group}`)).model).toEqual({ id: organizationModel?.id, label: 'Organization' });
  });
});

describe('reference data is seeded per environment', () => {
  it('countries, genders, industries, interests, organization sizes, relation types, document types, custom-field types', async () => {
    for (const path of [
      '/crm/country',
      '/crm/gender',
      '/crm/industry',
      '/crm/interests',
      '/crm/organizationsize',
      '/crm/relationtype',
      '/crm/documenttype',
      '/customfields/type',
      '/customfields/model',
    ]) {
      expect((await list(crm, path)).length, path).toBeGreaterThan(0);
    }
    expect((await list<{ name: string }>(crm, '/crm/gender')).map((g) => g.name).sort()).toEqual(['Female', 'Male', 'Unknown']);
    expect(await list(crm, '/crm/country?q[country_code]=NL')).toEqual([
      expect.objectContaining({ name: 'Netherlands', country_code: 'NL', language_code: 'nl' }),
    ]);
    // reference data is read-only
    expect((await crm.v2('POST', '/crm/country', { name: 'Atlantis' })).status).toBe(404);
  });

  it('crm/debtor lists organizations and persons together', async () => {
    const org = await post(crm, '/crm/organization', { name: 'Debtor Org', relation_number: 'D-1' });
    const person = await post(crm, '/crm/person', { first_name: 'Debtor', family_name: 'Person', relation_number: 'D-2' });
    const rows = await list<{ organization: { id: string } | null; person: { id: string } | null }>(
      crm,
      '/crm/debtor?q[relation_number][in]=D-1,D-2&sort=name',
    );
    expect(rows).toEqual([
      expect.objectContaining({ organization: expect.objectContaining({ id: org, name: 'Debtor Org' }), person: null }),
      expect.objectContaining({
        organization: null,
        person: expect.objectContaining({ id: person, full_name: 'Debtor Person' }),
      }),
    ]);
  });
});
