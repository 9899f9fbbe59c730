import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorsOf, type ReferenceData, referenceData, v2Create, v2Get } from './support/projects.js';
import { type ApiClient, startTestService, type TestService } from './support/service.js';

let t: TestService;
let acme: ApiClient;
let ref: ReferenceData;
let billableProject: string;
let internalProject: string;

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

type Service = {
  id: string;
  name: string;
  explanation: string | null;
  invoice_method: string;
  subscription_cycle: string | null;
  track_cost: boolean;
  hour_types: {
    id: string;
    hourstype: { id: string };
    billable: boolean;
    tariff: number | null;
    budgeted_amount: number | null;
  }[];
  cost_types: { id: string; costtype: { id: string }; billable: boolean }[];
  installments: { name: string }[];
  invoice_in_installments: boolean;
};

beforeAll(async () => {
  t = await startTestService();
  acme = await t.environment('acme');
  ref = await referenceData(acme);
  billableProject = await v2Create(acme, '/projects/project', { name: 'Website', billable: true });
  internalProject = await v2Create(acme, '/projects/project', { name: 'Internal training', billable: false });
});
afterAll(() => t?.stop());

const hourType = (i = 0) => ref.hourTypes[i]?.id as string;
const costType = (i = 0) => ref.costTypes[i]?.id as string;

async function counts(): Promise<string> {
  const rows = await t.db.query(
    `SELECT (SELECT count(*) FROM project_service) AS services, (SELECT count(*) FROM project_service_hour_type) AS lines,
            (SELECT count(*) FROM event) AS events, (SELECT max(updated_at) FROM project_service) AS last_change`,
  );
  return JSON.stringify(rows);
}

/** A refused write answers `status`, names `mentions`, and changes nothing. */
async function refused(method: string, path: string, body: unknown, status: number, mentions: string) {
  const before = await counts();
  const res = await acme.v2(method, path, body);
  expect(res.status, res.text).toBe(status);
  expect(errorsOf(res.body)).toContain(mentions);
  expect(await counts()).toBe(before);
}

function service(body: Record<string, unknown>) {
  return { project_id: billableProject, name: 'Service', ...body };
}

describe('projects/service ids', () => {
  it('new project services get UUID version 7 ids', async () => {
    const id = await v2Create(acme, '/projects/service', service({ invoice_method: 'FixedFee', price: 1000 }));
    expect(id).toMatch(UUID_V7);
    expect((await v2Get<Service>(acme, `/projects/service/${id}`)).id).toBe(id);
  });

  it('ids of existing services never change (an older id form is kept through PUT)', async () => {
    const legacy = 'service:0f1e2d3c4b5a69788796a5b4c3d2e1f0';
    const [env] = await t.db.query<{ id: string }>(`SELECT id FROM environment WHERE name = 'acme'`);
    await t.db.query(
      `INSERT INTO project_service (id, environment_id, project_id, name, invoice_method, updated_at)
       VALUES ($1, $2, $3, 'Legacy service', 'fixed_price', now())`,
      [legacy, env?.id, billableProject],
    );
    const put = await acme.v2('PUT', `/projects/service/${legacy}`, { name: 'Legacy renamed' });
    expect(put.status, put.text).toBe(200);
    expect((put.body as { data: { id: string } }).data.id).toBe(legacy);
    const read = await v2Get<Service>(acme, `/projects/service/${legacy}`);
    expect(read).toMatchObject({ id: legacy, name: 'Legacy renamed' });
    const rows = await t.db.query(`SELECT id FROM project_service WHERE name = 'Legacy renamed'`);
    expect(rows).toEqual([{ id: legacy }]);
  });
});

describe('hourtype_id prefixes', () => {
  it('hourtype_id on POST/PUT projects/service accepts only hourtype and itemtype ids; a project hour type id is refused', async () => {
    const id = await v2Create(
      acme,
      '/projects/service',
      service({
        invoice_method: 'Hours',
        hour_types: [
          { hourtype_id: hourType(0), billable: true },
          { hourtype_id: costType(0), billable: false },
        ],
      }),
    );
    const created = await v2Get<Service>(acme, `/projects/service/${id}`);
    expect(created.hour_types.map((h) => h.hourstype.id)).toEqual([hourType(0)]);
    expect(created.cost_types.map((c) => c.costtype.id)).toEqual([costType(0)]);
    const projectHourTypeId = created.hour_types[0]?.id as string;
    expect(projectHourTypeId).toMatch(/^projecthourtype:/);

    await refused(
      'POST',
      '/projects/service',
      service({ invoice_method: 'Hours', hour_types: [{ hourtype_id: projectHourTypeId, billable: true }] }),
      400,
      'project hour type id is refused',
    );
    await refused(
      'PUT',
      `/projects/service/${id}`,
      { hour_types: [{ hourtype_id: projectHourTypeId, billable: true }] },
      400,
      'hour_types.0.hourtype_id',
    );
    await refused(
      'POST',
      '/projects/service',
      service({ invoice_method: 'Hours', hour_types: [{ hourtype_id: billableProject, billable: true }] }),
      400,
      'hourtype or itemtype',
    );
    // an hourtype id that does not exist is refused as well
    await refused(
      'POST',
      '/projects/service',
      service({ invoice_method: 'Hours', hour_types: [{ hourtype_id: 'hourtype:doesnotexist', billable: true }] }),
      400,
      'no such record',
    );
  });

  it('the reference spelling hourstype_id is accepted too', async () => {
    const id = await v2Create(
      acme,
      '/projects/service',
      service({ invoice_method: 'Hours', hour_types: [{ hourstype_id: hourType(1), billable: true }] }),
    );
    expect((await v2Get<Service>(acme, `/projects/service/${id}`)).hour_types[0]?.hourstype.id).toBe(hourType(1));
  });
});

describe('hour_types[].billable follows the invoice method', () => {
  it('FixedFee: billable is always true; false is a validation error and null becomes true', async () => {
    const id = await v2Create(
      acme,
      '/projects/service',
      service({
        invoice_method: 'FixedFee',
        price: 500,
        hour_types: [
          { hourtype_id: hourType(0), billable: null },
          { hourtype_id: hourType(1), billable: true },
          { hourtype_id: hourType(2) },
        ],
      }),
    );
    expect((await v2Get<Service>(acme, `/projects/service/${id}`)).hour_types.map((h) => h.billable)).toEqual([true, true, true]);
    await refused(
      'POST',
      '/projects/service',
      service({ invoice_method: 'FixedFee', hour_types: [{ hourtype_id: hourType(0), billable: false }] }),
      400,
      'hour_types.0.billable',
    );
  });

  it('Hours: billable must be true or false; null is a validation error', async () => {
    const id = await v2Create(
      acme,
      '/projects/service',
      service({
        invoice_method: 'Hours',
        hour_types: [
          { hourtype_id: hourType(0), billable: true },
          { hourtype_id: hourType(1), billable: false },
        ],
      }),
    );
    expect((await v2Get<Service>(acme, `/projects/service/${id}`)).hour_types.map((h) => h.billable)).toEqual([true, false]);
    await refused(
      'POST',
      '/projects/service',
      service({ invoice_method: 'Hours', hour_types: [{ hourtype_id: hourType(0), billable: null }] }),
      400,
      'hour_types.0.billable',
    );
    await refused(
      'PUT',
      `/projects/service/${id}`,
      { hour_types: [{ hourtype_id: hourType(0), billable: true }, { hourtype_id: hourType(1) }] },
      400,
      'hour_types.1.billable',
    );
  });

  it('internal project (billable false): billable is always false; true is a validation error and null becomes false', async () => {
    const id = await v2Create(acme, '/projects/service', {
      project_id: internalProject,
      name: 'Internal work',
      invoice_method: 'Hours',
      hour_types: [
        { hourtype_id: hourType(0), billable: null },
        { hourtype_id: hourType(1), billable: false },
      ],
    });
    expect((await v2Get<Service>(acme, `/projects/service/${id}`)).hour_types.map((h) => h.billable)).toEqual([false, false]);
    await refused(
      'POST',
      '/projects/service',
      {
        project_id: internalProject,
        name: 'X',
        invoice_method: 'FixedFee',
        hour_types: [{ hourtype_id: hourType(0), billable: true }],
      },
      400,
      'internal',
    );
  });

  it('cost types in hour_types follow the same billable rule', async () => {
    await refused(
      'POST',
      '/projects/service',
      service({ invoice_method: 'FixedFee', hour_types: [{ hourtype_id: costType(0), billable: false }] }),
      400,
      'hour_types.0.billable',
    );
    await refused(
      'POST',
      '/projects/service',
      service({ invoice_method: 'Hours', hour_types: [{ hourtype_id: costType(0), billable: null }] }),
      400,
      'hour_types.0.billable',
    );
    const id = await v2Create(
      acme,
      '/projects/service',
      service({ invoice_method: 'FixedFee', hour_types: [{ hourtype_id: costType(0), billable: null }] }),
    );
    expect((await v2Get<Service>(acme, `/projects/service/${id}`)).cost_types.map((c) => c.billable)).toEqual([true]);
  });
});

describe('invoice methods', () => {
  it('invoice_method takes FixedFee, Hours and Subscription; a subscription without subscription_cycle defaults to Month', async () => {
    for (const method of ['FixedFee', 'Hours', 'Subscription']) {
      const id = await v2Create(acme, '/projects/service', service({ invoice_method: method, price: 100 }));
      expect((await v2Get<Service>(acme, `/projects/service/${id}`)).invoice_method).toBe(method);
    }
    const monthly = await v2Create(acme, '/projects/service', service({ invoice_method: 'Subscription', price: 50 }));
    expect((await v2Get<Service>(acme, `/projects/service/${monthly}`)).subscription_cycle).toBe('Month');
    const yearly = await v2Create(
      acme,
      '/projects/service',
      service({ invoice_method: 'Subscription', subscription_cycle: 'Year' }),
    );
    expect((await v2Get<Service>(acme, `/projects/service/${yearly}`)).subscription_cycle).toBe('Year');
    await refused('POST', '/projects/service', service({ invoice_method: 'Barter' }), 400, 'invoice_method');
  });

  it('an invoice in installments requires the fixed-price invoice method; time-and-expenses is refused', async () => {
    const id = await v2Create(
      acme,
      '/projects/service',
      service({
        invoice_method: 'FixedFee',
        price: 9000,
        invoice_in_installments: true,
        installments: [
          { name: 'Start', percentage: 50 },
          { name: 'Delivery', percentage: 50 },
        ],
      }),
    );
    const read = await v2Get<Service>(acme, `/projects/service/${id}`);
    expect(read.invoice_in_installments).toBe(true);
    expect(read.installments.map((i) => i.name)).toEqual(['Start', 'Delivery']);
    await refused(
      'POST',
      '/projects/service',
      service({ invoice_method: 'Hours', invoice_in_installments: true, installments: [{ name: 'Start' }] }),
      400,
      'fixed-price',
    );
    await refused('PUT', `/projects/service/${id}`, { invoice_method: 'Hours' }, 400, 'fixed-price');
  });

  it('projects/service supports actual costs (type Hours): cost types on an hours service, track_cost on', async () => {
    const id = await v2Create(
      acme,
      '/projects/service',
      service({
        invoice_method: 'Hours',
        track_cost: true,
        hour_types: [
          { hourtype_id: hourType(0), billable: true },
          { hourtype_id: costType(1), billable: true, budgeted_amount: 2, tariff: 150 },
        ],
      }),
    );
    const read = await v2Get<Service>(acme, `/projects/service/${id}`);
    expect(read).toMatchObject({ invoice_method: 'Hours', track_cost: true });
    expect(read.cost_types).toMatchObject([{ costtype: { id: costType(1) }, billable: true, budgeted_amount: 2, tariff: 150 }]);
  });
});

describe('writes of projects/service', () => {
  it('PUT projects/service without hour_types keeps them', async () => {
    const id = await v2Create(
      acme,
      '/projects/service',
      service({ invoice_method: 'Hours', hour_types: [{ hourtype_id: hourType(0), billable: true, budgeted_amount: 8 }] }),
    );
    const before = await v2Get<Service>(acme, `/projects/service/${id}`);
    const put = await acme.v2('PUT', `/projects/service/${id}`, { name: 'Renamed', explanation: 'Still hours' });
    expect(put.status, put.text).toBe(200);
    const after = await v2Get<Service>(acme, `/projects/service/${id}`);
    expect(after.name).toBe('Renamed');
    expect(after.hour_types).toEqual(before.hour_types);
  });

  it('POST projects/service does not copy hour types from the default service', async () => {
    const template = ref.defaultServices.find((d) => d.hour_types.length > 0);
    expect(template).toBeDefined();
    const id = await v2Create(acme, '/projects/service', service({ invoice_method: 'Hours', default_service_id: template?.id }));
    const read = await v2Get<Service & { default_service_id: string }>(acme, `/projects/service/${id}`);
    expect(read.default_service_id).toBe(template?.id);
    expect(read.hour_types).toEqual([]);
    expect(read.cost_types).toEqual([]);
  });

  it('explanation is stored on project services', async () => {
    const id = await v2Create(
      acme,
      '/projects/service',
      service({ invoice_method: 'FixedFee', explanation: 'Two design rounds' }),
    );
    expect((await v2Get<Service>(acme, `/projects/service/${id}`)).explanation).toBe('Two design rounds');
    await acme.v2('PUT', `/projects/service/${id}`, { explanation: 'Three design rounds' });
    expect((await v2Get<Service>(acme, `/projects/service/${id}`)).explanation).toBe('Three design rounds');
  });

  it('a service of a closed project, or an invoiced one, may no longer be edited or deleted', async () => {
    const project = await v2Create(acme, '/projects/project', { name: 'Soon closed' });
    const id = await v2Create(acme, '/projects/service', { project_id: project, name: 'S', invoice_method: 'FixedFee' });
    const closed = ref.statuses.find((s) => s.is_closed)?.id;
    expect((await acme.v2('PUT', `/projects/project/${project}`, { project_status_id: closed })).status).toBe(200);
    await refused('PUT', `/projects/service/${id}`, { name: 'Too late' }, 400, 'closed');
    await refused('DELETE', `/projects/service/${id}`, undefined, 400, 'closed');

    const other = await v2Create(acme, '/projects/service', service({ invoice_method: 'FixedFee' }));
    await t.db.query(`UPDATE project_service SET status = 'invoiced' WHERE id = $1`, [other]);
    await refused('PUT', `/projects/service/${other}`, { name: 'Too late' }, 400, 'invoiced');
  });

  it('duplicate copies a service with its hour types under a new UUID v7 id', async () => {
    const id = await v2Create(
      acme,
      '/projects/service',
      service({ invoice_method: 'Hours', name: 'Original', hour_types: [{ hourtype_id: hourType(0), billable: true }] }),
    );
    const res = await acme.v2('POST', `/projects/service/${id}/duplicate`, {});
    expect(res.status, res.text).toBe(200);
    const copyId = (res.body as { data: { id: string } }).data.id;
    expect(copyId).toMatch(UUID_V7);
    expect(copyId).not.toBe(id);
    const copy = await v2Get<Service>(acme, `/projects/service/${copyId}`);
    expect(copy).toMatchObject({ name: 'Original', invoice_method: 'Hours' });
    expect(copy.hour_types.map((h) => h.hourstype.id)).toEqual([hourType(0)]);
    expect((await acme.v2('POST', '/projects/service/not-a-service/duplicate', {})).status).toBe(404);
  });

  it('planningBudget of a service and of its project sum budgeted amount × tariff', async () => {
    const project = await v2Create(acme, '/projects/project', { name: 'Budgeted' });
    const id = await v2Create(acme, '/projects/service', {
      project_id: project,
      name: 'Build',
      invoice_method: 'Hours',
      hour_types: [
        { hourtype_id: hourType(0), billable: true, budgeted_amount: 10, tariff: 100 },
        { hourtype_id: hourType(1), billable: true, budgeted_amount: 5, tariff: 80 },
      ],
    });
    const budget = await v2Get<{ hours: Record<string, number>; total: Record<string, number>; hour_types?: unknown[] }>(
      acme,
      `/projects/service/${id}/planningBudget?by=projectservicehourstype`,
    );
    expect(budget.hours).toMatchObject({ amount_budget: 15, value_budget: 1400, amount_spent: 0 });
    expect(budget.total).toMatchObject({ value_budget: 1400 });
    expect(budget.hour_types).toHaveLength(2);
    const projectBudget = await v2Get<{ hours: Record<string, number> }>(acme, `/projects/project/${project}/planningBudget`);
    expect(projectBudget.hours).toMatchObject({ amount_budget: 15, value_budget: 1400 });
    expect((await acme.v2('GET', `/projects/service/${id}/planningBudget?by=somethingelse`)).status).toBe(400);
    expect((await acme.v2('GET', '/projects/project/project:none/planningBudget')).status).toBe(404);
  });
});

describe('projects/project', () => {
  it('CRUD with the reference shape; custom_fields are present (empty: not wired in this branch)', async () => {
    const manager = await v2Create(acme, '/hrm/employee', { name: 'Pat Manager' });
    const id = await v2Create(acme, '/projects/project', {
      name: 'Shop',
      project_number: 'P-100',
      project_manager_id: manager,
      start_date: '2026-01-01',
      note: 'Webshop',
    });
    const p = await v2Get<Record<string, unknown>>(acme, `/projects/project/${id}`);
    expect(p).toMatchObject({
      id,
      name: 'Shop',
      project_number: 'P-100',
      billable: true,
      project_manager: { id: manager, name: 'Pat Manager' },
      project_status: { label: 'tab_pactive' },
      start_date: '2026-01-01',
      custom_fields: [],
      budget: { hours: { amount_budget: 0 } },
    });
    expect((await acme.v2('PUT', `/projects/project/${id}`, { note: 'Bigger webshop' })).status).toBe(200);
    expect((await v2Get<{ note: string }>(acme, `/projects/project/${id}`)).note).toBe('Bigger webshop');
    const list = await acme.v2('GET', '/projects/project?q[project_number]=P-100');
    expect((list.body as { data: { id: string }[] }).data.map((x) => x.id)).toEqual([id]);
    expect((await acme.v2('DELETE', `/projects/project/${id}`)).status).toBe(200);
    expect((await acme.v2('GET', `/projects/project/${id}`)).status).toBe(404);
  });

  it('billable of a project with services cannot change on PUT projects/project/{id}; the services must be removed first', async () => {
    const id = await v2Create(acme, '/projects/project', { name: 'Billing switch', billable: true });
    const serviceId = await v2Create(acme, '/projects/service', { project_id: id, name: 'S', invoice_method: 'FixedFee' });
    const before = await counts();
    const res = await acme.v2('PUT', `/projects/project/${id}`, { billable: false });
    expect(res.status).toBe(400);
    expect(errorsOf(res.body)).toContain('remove the services first');
    expect(await counts()).toBe(before);
    expect((await v2Get<{ billable: boolean }>(acme, `/projects/project/${id}`)).billable).toBe(true);
    // the same value is no change, and other fields may change
    expect((await acme.v2('PUT', `/projects/project/${id}`, { billable: true, name: 'Renamed' })).status).toBe(200);
    expect((await acme.v2('DELETE', `/projects/service/${serviceId}`)).status).toBe(200);
    expect((await acme.v2('PUT', `/projects/project/${id}`, { billable: false })).status).toBe(200);
    expect((await v2Get<{ billable: boolean }>(acme, `/projects/project/${id}`)).billable).toBe(false);
  });
});

describe('projects/assignment', () => {
  async function projectHourType(): Promise<string> {
    const id = await v2Create(
      acme,
      '/projects/service',
      service({ invoice_method: 'Hours', hour_types: [{ hourtype_id: hourType(0), billable: true }] }),
    );
    return (await v2Get<Service>(acme, `/projects/service/${id}`)).hour_types[0]?.id as string;
  }

  it('POST projects/assignment answers the created id only; reads carry created_at, updated_at and description', async () => {
    const employee = await v2Create(acme, '/hrm/employee', { name: 'Alex Dev' });
    const res = await acme.v2('POST', '/projects/assignment', {
      projecthourstype_id: await projectHourType(),
      name: 'Build the shop',
      description: 'Frontend and checkout',
      start_date: '2026-02-01',
      end_date: '2026-03-01',
      employees: [{ id: employee }],
    });
    expect(res.status, res.text).toBe(200);
    const data = (res.body as { data: Record<string, unknown> }).data;
    expect(Object.keys(data)).toEqual(['id']);
    const a = await v2Get<Record<string, unknown>>(acme, `/projects/assignment/${data.id}`);
    expect(a).toMatchObject({
      id: data.id,
      description: 'Frontend and checkout',
      start_date: '2026-02-01',
      end_date: '2026-03-01',
      employees: [{ id: employee, name: 'Alex Dev' }],
      project: { id: billableProject },
    });
    expect(a.created_at).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(a.updated_at).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  });

  it('PUT projects/assignment accepts no start_date or end_date', async () => {
    const id = await v2Create(acme, '/projects/assignment', {
      projecthourstype_id: await projectHourType(),
      start_date: '2026-02-01',
    });
    const before = await v2Get<Record<string, unknown>>(acme, `/projects/assignment/${id}`);
    for (const field of ['start_date', 'end_date']) {
      const res = await acme.v2('PUT', `/projects/assignment/${id}`, { name: 'x', [field]: '2026-05-01' });
      expect(res.status).toBe(400);
      expect(errorsOf(res.body)).toContain(field);
    }
    expect(await v2Get(acme, `/projects/assignment/${id}`)).toEqual(before);
    const ok = await acme.v2('PUT', `/projects/assignment/${id}`, { description: 'Changed' });
    expect(ok.status, ok.text).toBe(200);
    expect(await v2Get(acme, `/projects/assignment/${id}`)).toMatchObject({ description: 'Changed', start_date: '2026-02-01' });
  });
});

describe('projects/projectemployee, purchases and reference resources', () => {
  it('POST adds an employee to a project (twice is a conflict); DELETE removes it', async () => {
    const employee = await v2Create(acme, '/hrm/employee', { name: 'Sam Member' });
    const id = await v2Create(acme, '/projects/projectemployee', {
      project_id: billableProject,
      employee_id: employee,
      tariff: 90,
    });
    expect(await v2Get(acme, `/projects/projectemployee/${id}`)).toEqual({
      id,
      project_id: billableProject,
      employee_id: employee,
      tariff: 90,
    });
    const project = await v2Get<{ employees: { id: string }[] }>(acme, `/projects/project/${billableProject}`);
    expect(project.employees.map((e) => e.id)).toContain(employee);
    expect(
      (await acme.v2('POST', '/projects/projectemployee', { project_id: billableProject, employee_id: employee })).status,
    ).toBe(409);
    expect(
      (await acme.v2('POST', '/projects/projectemployee', { project_id: billableProject, employee_id: 'employee:none' })).status,
    ).toBe(400);
    expect((await acme.v2('DELETE', `/projects/projectemployee/${id}`)).status).toBe(200);
    expect((await acme.v2('GET', `/projects/projectemployee/${id}`)).status).toBe(404);
  });

  it('projects/purchase has invoice_date and invoice_amount in list and single reads', async () => {
    const [env] = await t.db.query<{ id: string }>(`SELECT id FROM environment WHERE name = 'acme'`);
    await t.db.query(
      `INSERT INTO purchase (id, environment_id, project_id, supplier, invoice_number, invoice_date, invoice_amount, updated_at)
       VALUES ('purchase:p1', $1, $2, 'Paper Co', 'INV-9', '2026-05-04', 123.45, now())`,
      [env?.id, billableProject],
    );
    const one = await v2Get(acme, '/projects/purchase/purchase:p1');
    expect(one).toMatchObject({
      supplier: 'Paper Co',
      invoice_date: '2026-05-04',
      invoice_amount: 123.45,
      projects: [{ id: billableProject }],
    });
    const list = await v2Get<Record<string, unknown>[]>(acme, '/projects/purchase?q[invoice_date][ge]=2026-05-01');
    expect(list).toMatchObject([{ id: 'purchase:p1', invoice_date: '2026-05-04', invoice_amount: 123.45 }]);
    expect((await acme.v2('POST', '/projects/purchase', { supplier: 'x' })).status).toBe(404);
  });

  it('projectstatus, projectfilters, purchasetype, coststype and hourstype are listed; hourstype and defaultservice are writable', async () => {
    expect(ref.statuses.map((s) => s.label)).toEqual(['tab_pactive', 'tab_ponhold', 'tab_pclosed']);
    expect((await v2Get<unknown[]>(acme, '/projects/projectfilters')).length).toBeGreaterThan(0);
    const purchaseTypes = await v2Get<{ id: string }[]>(acme, '/projects/purchasetype');
    expect(purchaseTypes.map((p) => p.id).sort()).toEqual(ref.costTypes.map((c) => c.id).sort());
    expect(ref.costTypes.every((c) => c.id.startsWith('itemtype:'))).toBe(true);
    expect(ref.hourTypes.every((h) => h.id.startsWith('hourtype:'))).toBe(true);

    const hourTypeId = await v2Create(acme, '/hours/hourstype', { label: 'Support', tariff: '75.50', type: 'Work Type' });
    expect(await v2Get(acme, `/hours/hourstype/${hourTypeId}`)).toMatchObject({
      label: 'Support',
      tariff: '75.5',
      blocked: false,
    });
    expect((await acme.v2('PUT', `/hours/hourstype/${hourTypeId}`, { blocked: true })).status).toBe(200);

    const dsId = await v2Create(acme, '/services/defaultservice', {
      name: 'Hosting',
      price: 25,
      invoice_method: 'Subscription',
      hour_types: [{ hourtype_id: hourTypeId, tariff: 75 }],
    });
    expect(await v2Get(acme, `/services/defaultservice/${dsId}`)).toMatchObject({
      name: 'Hosting',
      price: 25,
      invoice_method: 'Subscription',
      hour_types: [{ hourtype_id: hourTypeId, tariff: 75 }],
    });
    expect((await acme.v2('PUT', `/services/defaultservice/${dsId}`, { price: 30 })).status).toBe(200);
    expect((await acme.v2('DELETE', `/services/defaultservice/${dsId}`)).status).toBe(200);
  });
});
