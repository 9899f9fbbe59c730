import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entityOf, v2Resources } from '@bo/api-v2';
import type { Envelope } from './support/crm.js';
import { type ApiClient, startTestService, type TestService } from './support/service.js';

/**
 * Rights do not leak through relations: reading or filtering through a relation into
 * another module needs that module's read right. Without it the nested object shows
 * only `id` and `name`, and a filter or sort past them answers 403. Checked for every
 * relation that crosses modules, on every v2 resource.
 */
let t: TestService;
let admin: ApiClient;
let crmOnly: ApiClient;
let organizationId: string;

beforeAll(async () => {
  t = await startTestService();
  admin = await t.environment('rights');
  crmOnly = await t.user('rights', 'crm-only@rights.test', { crm: 'read' });
  const [employee] = await t.db.query<{ id: string }>(
    `INSERT INTO employee (id, environment_id, name, work_email, updated_at)
     SELECT 'employee:rights-1', id, 'Erin Manager', 'erin@private.test', now() FROM environment WHERE name = 'rights' RETURNING id`,
  );
  const created = await admin.v2('POST', '/crm/organization', { name: 'Managed BV', relation_manager: { id: employee?.id } });
  organizationId = (created.body as Envelope<{ id: string }>).data.id;
});
afterAll(() => t?.stop());

describe('rights through relations', () => {
  it('without the hrm right an organization shows its relation manager as id and name only', async () => {
    const res = await crmOnly.v2('GET', `/crm/organization/${organizationId}?select=relation_manager`);
    expect(res.status).toBe(200);
    expect((res.body as Envelope).data).toEqual({
      id: organizationId,
      relation_manager: { id: 'employee:rights-1', name: 'Erin Manager' },
    });
    expect(res.text).not.toContain('erin@private.test');
    const list = await crmOnly.v2('GET', '/crm/organization?select=relation_manager');
    expect(list.text).not.toContain('erin@private.test');
    // with the right, the whole employee
    const full = await admin.v2('GET', `/crm/organization/${organizationId}?select=relation_manager`);
    expect((full.body as Envelope<{ relation_manager: { work_email: string } }>).data.relation_manager.work_email).toBe(
      'erin@private.test',
    );
  });

  const crossing = v2Resources.flatMap((r) =>
    Object.entries(entityOf(r).fields as Record<string, { kind: string; restricted?: boolean }>)
      .filter(([, f]) => f.restricted)
      .map(([name]) => ({ resource: r.path, relation: r.names.toV2(name) })),
  );

  it('every relation into another module is declared restricted, on every v2 resource', () => {
    const unguarded = v2Resources.flatMap((r) =>
      Object.entries(
        entityOf(r).fields as Record<string, { kind: string; restricted?: boolean; target?: () => { module: string } }>,
      )
        // a custom-field definition's group, type and options are its own parts, read with the right of its area
        .filter(([, f]) => f.target && !['customfields', entityOf(r).module].includes(f.target().module) && !f.restricted)
        .map(([name]) => `${r.path}: ${name}`),
    );
    expect(unguarded).toEqual([]);
    expect(crossing).toContainEqual({ resource: 'crm/organization', relation: 'relation_manager' });
  });

  for (const { resource, relation } of crossing.filter((c) => c.resource === 'crm/organization')) {
    it(`${resource}: filtering or sorting past ${relation}.id and .name needs the target module's read right`, async () => {
      for (const path of [
        `q[${relation}.work_email]=erin@private.test`,
        `q[${relation}.work_email]=*`,
        `sort=${relation}.work_email`,
      ]) {
        const res = await crmOnly.v2('GET', `/${resource}?${path}`);
        expect(res.status, `${path}: ${res.text}`).toBe(403);
        expect(res.text).toContain(relation);
      }
      for (const path of [`q[${relation}.id]=employee:rights-1`, `q[${relation}.name]=Erin*`, `q[${relation}]=null`]) {
        const res = await crmOnly.v2('GET', `/${resource}?${path}`);
        expect(res.status, `${path}: ${res.text}`).toBe(200);
      }
      const allowed = await admin.v2('GET', `/${resource}?q[${relation}.work_email]=erin@private.test`);
      expect(allowed.status).toBe(200);
      expect((allowed.body as Envelope<unknown[]>).data).toHaveLength(1);
    });
  }
});
