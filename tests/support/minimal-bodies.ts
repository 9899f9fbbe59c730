import { expect } from 'vitest';
import type { ApiClient, TestService } from './service.js';

/** The id of a row created through v2 (the create must succeed). */
export async function createdV2(api: ApiClient, path: string, body: Record<string, unknown>): Promise<string> {
  const res = await api.v2('POST', path, body);
  expect(res.status, res.text).toBe(200);
  return (res.body as { data: { id: string } }).data.id;
}

/** A v2 create body by resource path: the smallest valid one, made for one environment. */
export type MinimalBodies = Record<string, () => Promise<Record<string, unknown>>>;

/**
 * The smallest valid create body of each v2 resource with writes, in `environment` (through `api`,
 * its client): rows it needs are created first. References a body names are of that environment.
 * Shared by the reference tests (tests/references-checked.test.ts, tests/references-every-write-body.test.ts).
 */
export function minimalV2Bodies(t: TestService, api: ApiClient, environment: string): MinimalBodies {
  /** A row of a table of the environment. */
  async function refsRow(table: string): Promise<string> {
    const rows = await t.db.query<{ id: string }>(
      `SELECT x.id FROM "${table}" x JOIN environment e ON e.id = x.environment_id WHERE e.name = $1 LIMIT 1`,
      [environment],
    );
    return rows[0]?.id as string;
  }
  const created = (path: string, body: Record<string, unknown>) => createdV2(api, path, body);
  return {
    'crm/organization': async () => ({ name: 'Ref Check BV' }),
    // its references are in linked_to, checked by tests/workflows.test.ts
    'workflows/workflow': async () => ({}),
    'projects/project': async () => ({ name: 'Ref Check Project' }),
    'projects/service': async () => ({
      project_id: await created('/projects/project', { name: 'P' }),
      name: 'S',
      invoice_method: 'FixedFee',
    }),
    'projects/assignment': async () => {
      const hourType = (await api.v2('GET', '/hours/hourstype?limit=1').then((r) => r.body as { data: { id: string }[] }))
        .data[0];
      const service = await created('/projects/service', {
        project_id: await created('/projects/project', { name: 'P' }),
        name: 'S',
        invoice_method: 'Hours',
        hour_types: [{ hourtype_id: hourType?.id, billable: true }],
      });
      const read = await api.v2('GET', `/projects/service/${service}`);
      const line = (read.body as { data: { hour_types: { id: string }[] } }).data.hour_types[0]?.id;
      return { name: 'A', start_date: '2026-02-01', projecthourstype_id: line };
    },
    'projects/assignmentstatus': async () => ({ name: 'Ref Check Status' }),
    'shared/item': async () => ({ tag: 'ref-check' }),
    'projects/projectemployee': async () => ({
      project_id: await created('/projects/project', { name: 'P' }),
      employee_id: await created('/hrm/employee', { name: 'E' }),
    }),
    'hours/hourstype': async () => ({ label: 'Ref Check Hours' }),
    'hrm/employee': async () => ({ name: 'Ref Check Employee' }),
    'services/defaultservice': async () => ({ name: 'Ref Check Service' }),
    'hrm/timetable': async () => ({
      employee_id: await created('/hrm/employee', { name: 'T' }),
      start_date: '2025-01-01',
      even_week: Object.fromEntries([1, 2, 3, 4, 5, 6, 7].map((d) => [`day_${d}`, { hours: 0 }])),
    }),
    'hrm/leave': async () => ({
      employee_id: await created('/hrm/employee', { name: 'L' }),
      leave_type_id: await refsRow('leave_type'),
      year: 2025,
      hours: 8,
    }),
    'hours/leave': async () => ({
      employee_id: await created('/hrm/employee', { name: 'L' }),
      leave_type_id: await refsRow('leave_type'),
      year: 2025,
      hours: 8,
    }),
    'hrm/absence': async () => ({
      employee_id: await created('/hrm/employee', { name: 'A' }),
      absence_type_id: await refsRow('absence_type'),
      start_date: '2025-01-01',
    }),
    'hours/absence': async () => ({
      employee_id: await created('/hrm/employee', { name: 'A' }),
      absence_type_id: await refsRow('absence_type'),
      start_date: '2025-01-01',
    }),
    // hours, time and costs (issue 10): valid shapes whose ids name nothing, so every reference is refused together
    'hours/hours': async () => ({
      employee_id: 'employee:none',
      projectservice_id: 'projectservice:none',
      type_id: 'hourtype:none',
      start_date: '2026-03-02',
      duration_in_minutes: 60,
    }),
    'hours/approval': async () => ({
      employee_id: 'employee:none',
      date: '2026-03-02',
      approvalstatus_id: 'approvalstatus:none',
    }),
    'timers/timer': async () => ({
      employee_id: 'employee:none',
      projectservice_id: 'projectservice:none',
      hourstype_id: 'hourtype:none',
    }),
    'mileage/mileage': async () => ({
      employee_id: 'employee:none',
      project_id: 'project:none',
      mileage: 5,
      start_date: '2026-03-02',
    }),
    'hours/mileage': async () => ({
      employee_id: 'employee:none',
      project_id: 'project:none',
      mileage: 5,
      start_date: '2026-03-02',
    }),
    'costs/expense': async () => ({
      employee_id: 'employee:none',
      projectservice_id: 'projectservice:none',
      costtype_id: 'itemtype:none',
      date: '2026-03-02',
      amount: 1,
    }),
  };
}
