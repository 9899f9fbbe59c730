import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORGANIZATION_REFERENCES, PERSON_REFERENCES } from '@bo/domain/crm/merge/relation-references';
import { type Envelope, post } from './support/crm.js';
import { type ApiClient, startTestService, type TestService } from './support/service.js';
import { databaseFingerprint } from './support/snapshot.js';

/**
 * Merging relations (crm/mergeorganization, crm/mergeperson): every reference moves to
 * the survivor in one transaction and the merged one is gone; merger/compare* shows the
 * field-by-field differences first; an event goes out for each changed entity.
 */
let t: TestService;
let api: ApiClient;
let other: ApiClient;

beforeAll(async () => {
  t = await startTestService();
  api = await t.environment('merge');
  other = await t.environment('merge-other');
});
afterAll(() => t?.stop());

async function unchanged(run: () => Promise<void>) {
  const strip = async () => {
    const { api_token: _lastUse, ...rest } = await databaseFingerprint(t.db);
    return rest;
  };
  const before = await strip();
  await run();
  expect(await strip()).toEqual(before);
}

describe('the merge knows every reference', () => {
  it('every column that refers to an organization or a person is listed, so a merge moves it', async () => {
    // foreign keys onto the two tables, and the plain link columns kept without one
    const columns = await t.db.query<{ target: string; table_name: string; column_name: string }>(
      `SELECT ccu.table_name AS target, kcu.table_name, kcu.column_name
         FROM information_schema.table_constraints tc
         JOIN information_schema.key_column_usage kcu ON kcu.constraint_name = tc.constraint_name AND kcu.table_schema = tc.table_schema
         JOIN information_schema.constraint_column_usage ccu ON ccu.constraint_name = tc.constraint_name AND ccu.table_schema = tc.table_schema
        WHERE tc.constraint_type = 'FOREIGN KEY' AND tc.table_schema = 'public' AND ccu.table_name IN ('organization', 'person')
       UNION
       SELECT CASE WHEN c.column_name LIKE '%organization_id' THEN 'organization' ELSE 'person' END, c.table_name, c.column_name
         FROM information_schema.columns c
         JOIN information_schema.tables t ON t.table_name = c.table_name AND t.table_schema = c.table_schema AND t.table_type = 'BASE TABLE'
        WHERE c.table_schema = 'public' AND (c.column_name ~ '(^|_)organization_id$' OR c.column_name ~ '(^|_)person_id$')`,
    );
    const listed = new Set([
      ...ORGANIZATION_REFERENCES.map((r) => `organization ${r.table}.${r.column}`),
      ...PERSON_REFERENCES.map((r) => `person ${r.table}.${r.column}`),
    ]);
    const missing = columns.map((c) => `${c.target} ${c.table_name}.${c.column_name}`).filter((c) => !listed.has(c));
    expect(missing).toEqual([]);
  });
});

describe('merging organizations', () => {
  it('merger/compareorganization shows the differing fields and what would move, and changes nothing', async () => {
    const source = await post(api, '/crm/organization', { name: 'Acme Ltd', coc_code: '111', email: 'a@acme.test' });
    const target = await post(api, '/crm/organization', { name: 'Acme BV', coc_code: '111', email: null });
    await post(api, '/workflows/workflow', {
      default_workflow_id: (
        await t.db.query<{ id: string }>(
          `SELECT d.id FROM default_workflow d JOIN environment e ON e.id = d.environment_id WHERE e.name = 'merge' AND d.applies_to = 'organization'`,
        )
      )[0]?.id,
      linked_to: { organization_id: source },
    });
    await unchanged(async () => {
      const res = await api.v2('POST', '/merger/compareorganization', { source_id: source, target_id: target });
      expect(res.status, res.text).toBe(200);
      const data = (res.body as Envelope<{ is_valid: boolean; differences: { field: string }[]; moves: Record<string, number> }>)
        .data;
      expect(data.is_valid).toBe(true);
      expect(data.differences.map((d) => d.field).sort()).toEqual(['email', 'name']);
      expect(data.moves).toEqual({ workflow: 1 });
    });
  });

  it('every reference moves to the survivor in one transaction, the merged one is gone, and each changed entity records an event', async () => {
    const source = await post(api, '/crm/organization', {
      name: 'Source BV',
      visiting_address: { locality: 'Utrecht' },
      postal_address: { locality: 'Zeist' },
    });
    const target = await post(api, '/crm/organization', { name: 'Target BV', visiting_address: { locality: 'Amsterdam' } });
    const person = await post(api, '/crm/person', { family_name: 'Linked' });
    const both = await post(api, '/crm/person', { family_name: 'Both' });
    await api.v2('PUT', `/crm/organization/${source}`, {
      linked_persons_contacts: [
        { person_id: person, work_email: 'p@source.test' },
        { person_id: both, work_function: 'source' },
      ],
    });
    await api.v2('PUT', `/crm/organization/${target}`, {
      linked_persons_contacts: [{ person_id: both, work_function: 'target' }],
    });
    const defaultId = (
      await t.db.query<{ id: string }>(
        `SELECT d.id FROM default_workflow d JOIN environment e ON e.id = d.environment_id WHERE e.name = 'merge' AND d.applies_to = 'organization'`,
      )
    )[0]?.id;
    const workflow = await post(api, '/workflows/workflow', {
      default_workflow_id: defaultId,
      linked_to: { organization_id: source },
    });

    const res = await api.v2('POST', '/crm/mergeorganization', { source_id: source, target_id: target });
    expect(res.status, res.text).toBe(200);
    expect((res.body as Envelope).data).toMatchObject({ success: true });

    expect((await api.v2('GET', `/crm/organization/${source}`)).status).toBe(404);
    const survivor = (await api.v2('GET', `/crm/organization/${target}`)).body as Envelope<{
      visiting_address: { locality: string };
      postal_address: { locality: string } | null;
      linked_persons_contacts: { person_id: string; work_function: string | null }[];
    }>;
    // the survivor's own values win; what it lacked comes from the merged one
    expect(survivor.data.visiting_address.locality).toBe('Amsterdam');
    expect(survivor.data.postal_address?.locality).toBe('Zeist');
    expect(survivor.data.linked_persons_contacts.map((c) => [c.person_id, c.work_function]).sort()).toEqual(
      [
        [both, 'target'],
        [person, null],
      ].sort(),
    );
    const wf = (await api.v2('GET', `/workflows/workflow/${workflow}`)).body as Envelope<{ organization: { id: string } }>;
    expect(wf.data.organization.id).toBe(target);
    const events = await t.db.query<{ type: string; entity_id: string }>(
      `SELECT type, entity_id FROM event WHERE entity_id = ANY($1::text[]) AND type <> 'organization.created' AND type <> 'workflow.created'
        ORDER BY id`,
      [[source, target, workflow]],
    );
    expect(events).toEqual(
      expect.arrayContaining([
        { type: 'workflow.updated', entity_id: workflow },
        { type: 'organization.updated', entity_id: target },
        { type: 'organization.deleted', entity_id: source },
      ]),
    );
    const contactEvents = await t.db.query(`SELECT 1 FROM event WHERE type = 'contactperson.updated'`);
    expect(contactEvents.length).toBeGreaterThan(0);
  });

  const refused: [string, () => Promise<Record<string, unknown>>][] = [
    [
      'merging a relation into itself',
      async () => {
        const id = await post(api, '/crm/organization', { name: 'Self BV' });
        return { source_id: id, target_id: id };
      },
    ],
    [
      'merging into one of another environment',
      async () => ({
        source_id: await post(api, '/crm/organization', { name: 'Here BV' }),
        target_id: await post(other, '/crm/organization', { name: 'There BV' }),
      }),
    ],
    [
      'merging one of another environment',
      async () => ({
        source_id: await post(other, '/crm/organization', { name: 'There Too BV' }),
        target_id: await post(api, '/crm/organization', { name: 'Here Too BV' }),
      }),
    ],
    [
      'a made-up id',
      async () => ({ source_id: 'organization:made-up', target_id: await post(api, '/crm/organization', { name: 'Real BV' }) }),
    ],
    ['no ids', async () => ({})],
  ];
  for (const [name, body] of refused) {
    it(`${name} answers 400 and changes nothing`, async () => {
      const b = await body();
      await unchanged(async () => {
        const res = await api.v2('POST', '/crm/mergeorganization', b);
        expect(res.status, res.text).toBe(400);
      });
    });
  }
});

describe('merging persons', () => {
  it('a person merged into another: contacts, workflows and addresses move; the merged person is gone', async () => {
    const organization = await post(api, '/crm/organization', { name: 'Employer BV' });
    const source = await post(api, '/crm/person', { family_name: 'Jansen', address: { locality: 'Delft' } });
    const target = await post(api, '/crm/person', { family_name: 'Janssen' });
    await api.v2('PUT', `/crm/organization/${organization}`, { linked_persons_contacts: [{ person_id: source }] });
    const compare = await api.v2('POST', '/merger/compareperson', { source_id: source, target_id: target });
    expect(compare.status, compare.text).toBe(200);
    expect((compare.body as Envelope<{ is_valid: boolean }>).data.is_valid).toBe(true);
    const res = await api.v2('POST', '/crm/mergeperson', { source_id: source, target_id: target });
    expect(res.status, res.text).toBe(200);
    expect((await api.v2('GET', `/crm/person/${source}`)).status).toBe(404);
    const contacts = await t.db.query<{ person_id: string }>('SELECT person_id FROM contact_person WHERE organization_id = $1', [
      organization,
    ]);
    expect(contacts).toEqual([{ person_id: target }]);
    const address = await t.db.query<{ locality: string }>('SELECT locality FROM person_address WHERE person_id = $1', [target]);
    expect(address).toEqual([{ locality: 'Delft' }]);
  });
});
