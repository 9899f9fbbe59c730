import { expect } from 'vitest';
import { contractValidator } from './contract.js';
import type { Envelope } from './crm.js';
import { referenceData } from './projects.js';
import type { ApiClient, TestService } from './service.js';

/** Set-up and checks shared by the hours tests (issue 10). */

const { validatorFor } = contractValidator();

/** The value has every property of the reference definition, each of its type (or null). */
export function conforms(definition: string, value: unknown, without: string[] = []) {
  const validate = validatorFor(definition);
  const ok = validate(value);
  const errors = (validate.errors ?? []).filter(
    (e) => !without.some((w) => e.instancePath === `/${w}` || (e.keyword === 'required' && e.params.missingProperty === w)),
  );
  expect(ok || errors.length === 0 ? [] : errors, definition).toEqual([]);
}

export const errorsOf = (res: { body: unknown }) => ((res.body as Envelope).errors ?? []).join(' ');

export async function v2Data<T = Record<string, unknown>>(client: ApiClient, p: string): Promise<T> {
  const res = await client.v2('GET', p);
  expect(res.status, `${p}: ${res.text}`).toBe(200);
  return (res.body as Envelope<T>).data;
}

export async function v2Post(client: ApiClient, p: string, body: Record<string, unknown>): Promise<string> {
  const res = await client.v2('POST', p, body);
  expect(res.status, `${p}: ${res.text}`).toBe(200);
  return (res.body as Envelope<{ id: string }>).data.id;
}

export interface Bookable {
  employee: string;
  project: string;
  /** a service invoiced on hours, hour types 0 (billable) and 1 (not billable) */
  service: string;
  hourType: string;
  unbillableType: string;
  /** an hour type the service does not carry */
  otherType: string;
}

/**
 * A project with a service on hours, its registration timeframe 2026-01-01..2026-12-31,
 * and an employee assigned to it for 2026-02-01..2026-06-30.
 */
export async function bookable(client: ApiClient, name: string): Promise<Bookable> {
  const ref = await referenceData(client);
  const [a, b, c] = ref.hourTypes.map((h) => h.id) as [string, string, string];
  const employee = await v2Post(client, '/hrm/employee', { name: `${name} Employee` });
  const project = await v2Post(client, '/projects/project', { name: `${name} Project`, billable: true });
  const service = await v2Post(client, '/projects/service', {
    project_id: project,
    name: `${name} Work`,
    invoice_method: 'Hours',
    write_hours_start_date: '2026-01-01',
    write_hours_end_date: '2026-12-31',
    hour_types: [
      { hourtype_id: a, billable: true, tariff: 100 },
      { hourtype_id: b, billable: false, tariff: 80 },
    ],
  });
  const lines = (
    await v2Data<{ hour_types: { id: string; hourstype: { id: string } }[] }>(client, `/projects/service/${service}`)
  ).hour_types;
  await v2Post(client, '/projects/assignment', {
    projecthourstype_id: lines.find((l) => l.hourstype.id === a)?.id,
    start_date: '2026-02-01',
    end_date: '2026-06-30',
    employees: [{ id: employee }],
  });
  return { employee, project, service, hourType: a, unbillableType: b, otherType: c };
}

/** A v2 hours body on the bookable service. */
export function hoursBody(b: Bookable, extra: Record<string, unknown> = {}) {
  return {
    employee_id: b.employee,
    projectservice_id: b.service,
    type_id: b.hourType,
    start_date: '2026-03-02',
    duration_in_minutes: 120,
    note: 'Work',
    ...extra,
  };
}

/** Rows and digest of the hours tables and the events: equal before and after means nothing changed. */
export async function hoursFingerprint(t: TestService): Promise<string> {
  const rows = await t.db.query(
    `SELECT (SELECT md5(coalesce(string_agg(h::text, '|' ORDER BY h.id), '')) FROM hour_registration h) AS hours,
            (SELECT count(*) FROM hour_approval) AS approvals,
            (SELECT count(*) FROM timer) AS timers,
            (SELECT count(*) FROM mileage) AS mileage,
            (SELECT md5(coalesce(string_agg(e::text, '|' ORDER BY e.id), '')) FROM expense e) AS expenses,
            (SELECT count(*) FROM event) AS events`,
  );
  return JSON.stringify(rows);
}
