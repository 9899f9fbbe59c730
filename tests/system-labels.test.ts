import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, startTestService, type TestService } from './support/service.js';

/**
 * Issue 26: built-in lookup values carry the product's system labels, and integrations written
 * for the real service filter on them. Each built-in label filters to the expected rows.
 */
let t: TestService;
let acme: ApiClient;

beforeAll(async () => {
  t = await startTestService();
  acme = await t.environment('acme');
});
afterAll(() => t?.stop());

async function idOf(table: string, label: string): Promise<string> {
  const rows = await t.db.query<{ id: string }>(
    `SELECT x.id FROM "${table}" x JOIN environment e ON e.id = x.environment_id WHERE e.name = 'acme' AND x.label = $1`,
    [label],
  );
  expect(rows, `${table} ${label}`).toHaveLength(1);
  return rows[0]?.id as string;
}

async function created(path: string, body: Record<string, unknown>): Promise<string> {
  const res = await acme.v2('POST', path, body);
  expect(res.status, res.text).toBe(200);
  return (res.body as { data: { id: string } }).data.id;
}

async function ids(path: string): Promise<string[]> {
  const res = await acme.v2('GET', path);
  expect(res.status, res.text).toBe(200);
  return (res.body as { data: { id: string }[] }).data.map((r) => r.id).sort();
}

describe('system labels of the built-in lookup values', () => {
  it('the open sales status is OpportunityStatus_open, with the readable name Open; q[status.label] finds the open sales', async () => {
    const statuses = (await acme.v2('GET', '/sales/salesstatus')).body as { data: { label: string }[] };
    expect(statuses.data.map((s) => s.label)).toEqual([
      'OpportunityStatus_open',
      'OpportunityStatus_won',
      'OpportunityStatus_lost',
    ]);
    const names = await t.db.query<{ label: string; name: string }>(
      `SELECT s.label, s.name FROM sales_status s JOIN environment e ON e.id = s.environment_id WHERE e.name = 'acme' ORDER BY s.position`,
    );
    expect(names.map((s) => [s.label, s.name])).toEqual([
      ['OpportunityStatus_open', 'Open'],
      ['OpportunityStatus_won', 'Won'],
      ['OpportunityStatus_lost', 'Lost'],
    ]);
    const org = await created('/crm/organization', { name: 'Labels BV' });
    const open = await created('/sales/sales', {
      subject: 'Open one',
      organization_id: org,
      status_id: await idOf('sales_status', 'OpportunityStatus_open'),
    });
    await created('/sales/sales', {
      subject: 'Won one',
      organization_id: org,
      status_id: await idOf('sales_status', 'OpportunityStatus_won'),
    });
    expect(await ids('/sales/sales?q[status.label]=OpportunityStatus_open')).toEqual([open]);
  });

  it('the active project status is tab_pactive; q[project_status.label]=tab_pactive finds the active projects', async () => {
    const active = await created('/projects/project', {
      name: 'Running',
      project_status_id: await idOf('project_status', 'tab_pactive'),
    });
    await created('/projects/project', { name: 'Paused', project_status_id: await idOf('project_status', 'tab_ponhold') });
    expect(await ids('/projects/project?q[project_status.label]=tab_pactive')).toEqual([active]);
  });

  it('the own-company relation type is Relationtype_own_company; q[relation_type.label] finds the own company', async () => {
    const own = await created('/crm/organization', {
      name: 'Ourselves BV',
      relation_type: { id: await idOf('relation_type', 'Relationtype_own_company') },
    });
    await created('/crm/organization', {
      name: 'A Customer BV',
      relation_type: { id: await idOf('relation_type', 'Relationtype_customer') },
    });
    expect(await ids('/crm/organization?q[relation_type.label]=Relationtype_own_company')).toEqual([own]);
  });

  it('q[status.label]=active on hrm/employee returns the active employees', async () => {
    const active = await created('/hrm/employee', {
      name: 'Still Here',
      status: { id: await idOf('employee_status', 'active') },
    });
    await created('/hrm/employee', { name: 'Gone Away', status: { id: await idOf('employee_status', 'inactive') } });
    const found = await ids('/hrm/employee?q[status.label]=active');
    expect(found).toContain(active);
    const labels = (
      (await acme.v2('GET', '/hrm/employee?q[status.label]=active')).body as { data: { status: { label: string } }[] }
    ).data.map((e) => e.status.label);
    expect(new Set(labels)).toEqual(new Set(['active']));
  });
});
