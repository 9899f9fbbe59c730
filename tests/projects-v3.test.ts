import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ReferenceData, referenceData, v2Create, v2Get } from './support/projects.js';
import { type ApiClient, startTestService, type TestService } from './support/service.js';
import { databaseFingerprint } from './support/snapshot.js';
import { documentValidator, expectBusinessRule, expectProblem, expectViolations } from './support/v3.js';

let t: TestService;
let acme: ApiClient;
/** projects:read only: queries work, commands are forbidden */
let reader: ApiClient;
/** no rights at all */
let nobody: ApiClient;
let ref: ReferenceData;
let validate: (name: string, value: unknown) => void;
let project: string;
let acquisitionProject: string;

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const hourType = (i = 0) => ref.hourTypes[i]?.id as string;
const costType = (i = 0) => ref.costTypes[i]?.id as string;
const template = () => ref.defaultServices.find((d) => d.name === 'Web development')?.id as string;

type Service = { id: string; hourTypes: { id: string; hourTypeId: string; billable: boolean }[]; [k: string]: unknown };

beforeAll(async () => {
  t = await startTestService();
  acme = await t.environment('acme');
  reader = await t.user('acme', 'reader@acme.test', { projects: 'read', hrm: 'read', invoices: 'read' });
  nobody = await t.user('acme', 'nobody@acme.test', {});
  ref = await referenceData(acme);
  validate = await documentValidator(acme);
  project = await v2Create(acme, '/projects/project', { name: 'Website', billable: true });
  acquisitionProject = await v2Create(acme, '/projects/project', { name: 'Pitch', phase: 'acquisition' });
});
afterAll(() => t?.stop());

async function createService(body: Record<string, unknown> = {}): Promise<Service> {
  const res = await acme.v3('POST', '/projectService.create', {
    projectId: project,
    name: 'Build',
    invoiceMethod: 'fixed_price',
    ...body,
  });
  expect(res.status, res.text).toBe(201);
  return res.body as Service;
}

describe('project.get/{id}', () => {
  it('200 with Project.ProjectOutput', async () => {
    const res = await acme.v3('GET', `/project.get/${project}`);
    expect(res.status, res.text).toBe(200);
    validate('Project.ProjectOutput', res.body);
    expect(res.body).toMatchObject({ id: project, name: 'Website', phase: 'execution', billable: true, customFields: [] });
  });
  it('403 without the projects right, 404 for a missing project', async () => {
    expect(expectProblem(await nobody.v3('GET', `/project.get/${project}`), 403).detail).toBe('access denied');
    expectProblem(await acme.v3('GET', '/project.get/project:missing'), 404);
  });
});

describe('projectService.create', () => {
  it('201 with Project.InvoiceableService: a UUID v7 id, the billable rule applied', async () => {
    const res = await acme.v3('POST', '/projectService.create', {
      projectId: project,
      name: 'Design',
      explanation: 'Two rounds',
      invoiceMethod: 'fixed_price',
      price: 4000,
      hourTypes: [{ hourTypeId: hourType(0), budgetedAmount: 10 }],
      costTypes: [{ costTypeId: costType(0), billable: null }],
    });
    expect(res.status, res.text).toBe(201);
    validate('Project.InvoiceableService', res.body);
    const s = res.body as Service;
    expect(s.id).toMatch(UUID_V7);
    expect(s).toMatchObject({
      name: 'Design',
      explanation: 'Two rounds',
      invoiceMethod: 'fixed_price',
      price: 4000,
      kind: 'invoiceable',
    });
    expect(s.hourTypes).toMatchObject([{ hourTypeId: hourType(0), billable: true, budgetedAmount: 10 }]);
    expect((s as unknown as { costTypes: { billable: boolean }[] }).costTypes).toMatchObject([{ billable: true }]);
  });

  it('a subscription without a cycle is billed monthly', async () => {
    const s = await createService({ invoiceMethod: 'subscription', price: 20 });
    expect(s.subscriptionCycle).toBe('month');
  });

  it('400 for a wrong type or an unknown property (named), 403 without write right', async () => {
    expectProblem(
      await acme.v3('POST', '/projectService.create', {
        projectId: project,
        name: 'X',
        invoiceMethod: 'fixed_price',
        price: 'ten',
      }),
      400,
    );
    const unknown = expectProblem(
      await acme.v3('POST', '/projectService.create', {
        projectId: project,
        name: 'X',
        invoiceMethod: 'fixed_price',
        colour: 'red',
      }),
      400,
    );
    expect(unknown.violations?.map((v) => v.propertyPath)).toEqual(['colour']);
    expectProblem(
      await reader.v3('POST', '/projectService.create', { projectId: project, name: 'X', invoiceMethod: 'fixed_price' }),
      403,
    );
  });

  it('422: blank name, missing project, a project hour type id, the billable rule, installments on hours', async () => {
    expectViolations(
      await acme.v3('POST', '/projectService.create', { projectId: project, name: '  ', invoiceMethod: 'fixed_price' }),
      ['name'],
    );
    expectViolations(
      await acme.v3('POST', '/projectService.create', { projectId: 'project:missing', name: 'X', invoiceMethod: 'fixed_price' }),
      ['projectId'],
    );
    const existing = await createService({
      invoiceMethod: 'time_and_expenses',
      hourTypes: [{ hourTypeId: hourType(0), billable: true }],
    });
    const lineId = existing.hourTypes[0]?.id as string;
    const prefix = expectViolations(
      await acme.v3('POST', '/projectService.create', {
        projectId: project,
        name: 'X',
        invoiceMethod: 'time_and_expenses',
        hourTypes: [{ hourTypeId: lineId, billable: true }],
      }),
      ['hourTypes.0.hourTypeId'],
    );
    expect(prefix.violations?.[0]?.code).toBe('invalid_prefix');
    expectViolations(
      await acme.v3('POST', '/projectService.create', {
        projectId: project,
        name: 'X',
        invoiceMethod: 'time_and_expenses',
        hourTypes: [{ hourTypeId: hourType(0) }, { hourTypeId: hourType(1), billable: null }],
        costTypes: [{ costTypeId: costType(0), billable: true }],
      }),
      ['hourTypes.0.billable', 'hourTypes.1.billable'],
    );
    expectBusinessRule(
      await acme.v3('POST', '/projectService.create', {
        projectId: project,
        name: 'X',
        invoiceMethod: 'time_and_expenses',
        invoiceInInstallments: true,
      }),
      'requires the fixed-price invoice method',
    );
  });
});

describe('projectService.get/{id}', () => {
  it('200 in the shape of the service, 404 with the problem body when it does not exist, 403 without right', async () => {
    const s = await createService();
    const res = await acme.v3('GET', `/projectService.get/${s.id}`);
    expect(res.status).toBe(200);
    validate('Project.InvoiceableService', res.body);
    expect(res.body).toEqual(s);
    const missing = expectProblem(await acme.v3('GET', '/projectService.get/0190f3a0-0000-7000-8000-000000000000'), 404);
    expect(missing.type).toBe('/errors/404');
    expectProblem(await nobody.v3('GET', `/projectService.get/${s.id}`), 403);
  });
});

describe('projectService.edit', () => {
  it('200 with the service as after the edit; unnamed hour types are kept', async () => {
    const s = await createService({
      invoiceMethod: 'time_and_expenses',
      hourTypes: [{ hourTypeId: hourType(0), billable: false }],
    });
    const res = await acme.v3('POST', '/projectService.edit', { id: s.id, name: 'Build 2', explanation: 'more' });
    expect(res.status, res.text).toBe(200);
    validate('Project.InvoiceableService', res.body);
    expect(res.body).toMatchObject({
      id: s.id,
      name: 'Build 2',
      explanation: 'more',
      hourTypes: [{ hourTypeId: hourType(0), billable: false }],
    });
  });

  it('400 malformed, 403 without right, 404 for a missing service', async () => {
    const s = await createService();
    expectProblem(await acme.v3('POST', '/projectService.edit', { id: s.id, trackHours: 'yes' }), 400);
    expectProblem(await acme.v3('POST', '/projectService.edit', { id: s.id, projectId: project }), 400);
    expectProblem(await reader.v3('POST', '/projectService.edit', { id: s.id, name: 'X' }), 403);
    expectProblem(await acme.v3('POST', '/projectService.edit', { id: '0190f3a0-0000-7000-8000-000000000000', name: 'X' }), 404);
  });

  it('422 when the hour type or cost type does not exist', async () => {
    const s = await createService();
    expectViolations(
      await acme.v3('POST', '/projectService.edit', { id: s.id, hourTypes: [{ hourTypeId: 'hourtype:missing' }] }),
      ['hourTypes.0.hourTypeId'],
    );
    expectViolations(
      await acme.v3('POST', '/projectService.edit', { id: s.id, costTypes: [{ costTypeId: 'itemtype:missing' }] }),
      ['costTypes.0.costTypeId'],
    );
  });

  it('422 when the service may no longer be edited: invoiced, or its project closed', async () => {
    const invoiced = await createService();
    await t.db.query(`UPDATE project_service SET status = 'invoiced' WHERE id = $1`, [invoiced.id]);
    expectBusinessRule(await acme.v3('POST', '/projectService.edit', { id: invoiced.id, name: 'X' }), 'invoiced');

    const closing = await v2Create(acme, '/projects/project', { name: 'Closing' });
    const res = await acme.v3('POST', '/projectService.create', { projectId: closing, name: 'S', invoiceMethod: 'fixed_price' });
    const closed = ref.statuses.find((s) => s.is_closed)?.id;
    expect((await acme.v2('PUT', `/projects/project/${closing}`, { project_status_id: closed })).status).toBe(200);
    expectBusinessRule(await acme.v3('POST', '/projectService.edit', { id: (res.body as Service).id, name: 'X' }), 'closed');
  });

  it('422 when the edit would leave the service invalid', async () => {
    const s = await createService({
      invoiceMethod: 'time_and_expenses',
      hourTypes: [{ hourTypeId: hourType(0), billable: false }],
    });
    // a fixed price bills every hour type: the kept non-billable line would be invalid
    const p = expectViolations(await acme.v3('POST', '/projectService.edit', { id: s.id, invoiceMethod: 'fixed_price' }), [
      'invoiceMethod',
    ]);
    expect(p.violations?.[0]?.code).toBe('billable_mismatch');
    const fixed = await createService({ price: 100 });
    expectBusinessRule(
      await acme.v3('POST', '/projectService.edit', {
        id: fixed.id,
        invoiceMethod: 'time_and_expenses',
        invoiceInInstallments: true,
      }),
      'installments',
    );
  });
});

describe('projectService.build and projectService.build.acquisition', () => {
  it('200 with Project.BuiltService from the default service; nothing is stored', async () => {
    const before = await databaseFingerprint(t.db);
    const res = await acme.v3('POST', '/projectService.build', { projectId: project, defaultServiceId: template() });
    expect(res.status, res.text).toBe(200);
    validate('Project.BuiltService', res.body);
    expect(res.body).toMatchObject({
      kind: 'invoiceable',
      projectId: project,
      defaultServiceId: template(),
      name: 'Web development',
    });
    const built = res.body as { hourTypes: { billable: boolean }[]; costTypes: unknown[]; invoiceMethod: string };
    expect(built.invoiceMethod).toBe('time_and_expenses');
    expect(built.hourTypes.length).toBeGreaterThan(0);
    expect(built.hourTypes.every((h) => h.billable)).toBe(true);

    const acq = await acme.v3('POST', '/projectService.build.acquisition', {
      projectId: acquisitionProject,
      defaultServiceId: template(),
    });
    expect(acq.status, acq.text).toBe(200);
    validate('Project.BuiltService', acq.body);
    const a = acq.body as { kind: string; invoiceMethod: null; hourTypes: { billable: boolean }[]; costTypes: unknown[] };
    expect(a).toMatchObject({ kind: 'acquisition', invoiceMethod: null, costTypes: [] });
    expect(a.hourTypes.every((h) => h.billable === false)).toBe(true);
    expect(await databaseFingerprint(t.db)).toEqual(before);
  });

  it('422 when the project or the default service is missing; 400 malformed; 403 without right', async () => {
    for (const endpoint of ['/projectService.build', '/projectService.build.acquisition']) {
      expectViolations(await acme.v3('POST', endpoint, { projectId: 'project:missing', defaultServiceId: template() }), [
        'projectId',
      ]);
      expectViolations(await acme.v3('POST', endpoint, { projectId: project, defaultServiceId: 'defaultservice:missing' }), [
        'defaultServiceId',
      ]);
      expectProblem(await acme.v3('POST', endpoint, { projectId: 12, defaultServiceId: template() }), 400);
      expectProblem(await reader.v3('POST', endpoint, { projectId: project, defaultServiceId: template() }), 403);
    }
  });
});

describe('projectService.acquisition.create and .edit', () => {
  it('201 with Project.AcquisitionService: never billable; edit answers 201', async () => {
    const res = await acme.v3('POST', '/projectService.acquisition.create', {
      projectId: acquisitionProject,
      name: 'Pitch work',
      hourTypes: [{ hourTypeId: hourType(0), budgetedAmount: 6 }],
    });
    expect(res.status, res.text).toBe(201);
    validate('Project.AcquisitionService', res.body);
    const s = res.body as Service;
    expect(s).toMatchObject({ kind: 'acquisition', phase: 'acquisition', hourTypes: [{ billable: false, budgetedAmount: 6 }] });
    const edit = await acme.v3('POST', '/projectService.acquisition.edit', { id: s.id, name: 'Pitch and demo' });
    expect(edit.status, edit.text).toBe(201);
    validate('Project.AcquisitionService', edit.body);
    expect(edit.body).toMatchObject({ id: s.id, name: 'Pitch and demo', hourTypes: [{ billable: false }] });
  });

  it('create: 400, 403, 422 (missing project, project not in acquisition)', async () => {
    expectProblem(
      await acme.v3('POST', '/projectService.acquisition.create', { projectId: acquisitionProject, name: 'X', billable: true }),
      400,
    );
    expectProblem(
      await reader.v3('POST', '/projectService.acquisition.create', { projectId: acquisitionProject, name: 'X' }),
      403,
    );
    expectViolations(await acme.v3('POST', '/projectService.acquisition.create', { projectId: 'project:missing', name: 'X' }), [
      'projectId',
    ]);
    expectBusinessRule(
      await acme.v3('POST', '/projectService.acquisition.create', { projectId: project, name: 'X' }),
      'not in acquisition',
    );
  });

  it('edit: 400, 403, 404, 422 (another kind of service)', async () => {
    const invoiceable = await createService();
    expectProblem(await acme.v3('POST', '/projectService.acquisition.edit', { id: invoiceable.id, name: 5 }), 400);
    expectProblem(await reader.v3('POST', '/projectService.acquisition.edit', { id: invoiceable.id, name: 'X' }), 403);
    expectProblem(await acme.v3('POST', '/projectService.acquisition.edit', { id: 'projectservice:missing', name: 'X' }), 404);
    expectBusinessRule(
      await acme.v3('POST', '/projectService.acquisition.edit', { id: invoiceable.id, name: 'X' }),
      'not an acquisition',
    );
  });
});

describe('project.acquisition.approve', () => {
  it('moves an acquisition project and its acquisition services into execution; then their acquisition edit is refused', async () => {
    const pitch = await v2Create(acme, '/projects/project', { name: 'Won pitch', phase: 'acquisition' });
    const svc = (await acme.v3('POST', '/projectService.acquisition.create', { projectId: pitch, name: 'Sales work' }))
      .body as Service;
    const res = await acme.v3('POST', '/project.acquisition.approve', { projectId: pitch });
    expect(res.status, res.text).toBe(200);
    validate('Project.ProjectOutput', res.body);
    expect(res.body).toMatchObject({ id: pitch, phase: 'execution', services: [{ id: svc.id, kind: 'acquisition' }] });
    expect((await acme.v3('GET', `/projectService.get/${svc.id}`)).body).toMatchObject({ phase: 'execution' });
    expectBusinessRule(await acme.v3('POST', '/projectService.acquisition.edit', { id: svc.id, name: 'X' }), 'approved');
    expectBusinessRule(await acme.v3('POST', '/project.acquisition.approve', { projectId: pitch }), 'not in acquisition');
    // every change is an event: the project and each service it moved
    const events = await t.db.query<{ type: string; entity_id: string }>(
      `SELECT type, entity_id FROM event WHERE entity_id = ANY($1) AND type LIKE '%.updated' ORDER BY seq`,
      [[pitch, svc.id]],
    );
    expect(events.map((e) => `${e.type} ${e.entity_id}`)).toEqual([
      `projectservice.updated ${svc.id}`,
      `project.updated ${pitch}`,
    ]);
  });

  it('404 for a missing project, 400 malformed, 403 without right', async () => {
    expectProblem(await acme.v3('POST', '/project.acquisition.approve', { projectId: 'project:missing' }), 404);
    expectProblem(await acme.v3('POST', '/project.acquisition.approve', {}), 422);
    expectProblem(await acme.v3('POST', '/project.acquisition.approve', { projectId: ['x'] }), 400);
    expectProblem(await reader.v3('POST', '/project.acquisition.approve', { projectId: acquisitionProject }), 403);
  });
});

describe('projectService.advance.*', () => {
  it('configuration: 200, 403, and 404 when the environment has none', async () => {
    const res = await reader.v3('GET', '/projectService.advance.configuration');
    expect(res.status, res.text).toBe(200);
    validate('Project.Service.AdvanceServiceConfiguration', res.body);
    expect(res.body).toMatchObject({ name: 'Advance payment', invoiceMethod: 'fixed_price' });
    expectProblem(await nobody.v3('GET', '/projectService.advance.configuration'), 403);
    const other = await t.environment('noadvance');
    const [env] = await t.db.query<{ id: string }>(`SELECT id FROM environment WHERE name = 'noadvance'`);
    await t.db.query('DELETE FROM advance_service_configuration WHERE environment_id = $1', [env?.id]);
    expectProblem(await other.v3('GET', '/projectService.advance.configuration'), 404);
  });

  it('create and edit answer 201 with Project.AdvanceService', async () => {
    const res = await acme.v3('POST', '/projectService.advance.create', {
      projectId: project,
      price: 2500,
      expectedInvoiceDate: '2026-03-01',
    });
    expect(res.status, res.text).toBe(201);
    validate('Project.AdvanceService', res.body);
    const s = res.body as Service;
    expect(s).toMatchObject({ kind: 'advance', name: 'Advance payment', price: 2500, expectedInvoiceDate: '2026-03-01' });
    expect(s.id).toMatch(UUID_V7);
    const edit = await acme.v3('POST', '/projectService.advance.edit', { id: s.id, price: 3000 });
    expect(edit.status, edit.text).toBe(201);
    validate('Project.AdvanceService', edit.body);
    expect(edit.body).toMatchObject({ id: s.id, price: 3000 });
  });

  it('create: 400, 403, 422; edit: 400, 403, 422 (a missing advance service is a 422 here)', async () => {
    expectProblem(await acme.v3('POST', '/projectService.advance.create', { projectId: project, price: '12' }), 400);
    expectProblem(await reader.v3('POST', '/projectService.advance.create', { projectId: project, price: 12 }), 403);
    expectViolations(await acme.v3('POST', '/projectService.advance.create', { projectId: project, price: 0 }), ['price']);
    expectViolations(await acme.v3('POST', '/projectService.advance.create', { projectId: 'project:missing', price: 5 }), [
      'projectId',
    ]);
    const s = (await acme.v3('POST', '/projectService.advance.create', { projectId: project, price: 10 })).body as Service;
    expectProblem(await acme.v3('POST', '/projectService.advance.edit', { id: s.id, hourTypes: [] }), 400);
    expectProblem(await reader.v3('POST', '/projectService.advance.edit', { id: s.id, price: 5 }), 403);
    expectBusinessRule(
      await acme.v3('POST', '/projectService.advance.edit', { id: 'projectservice:missing', price: 5 }),
      'no advance service',
    );
    expectViolations(await acme.v3('POST', '/projectService.advance.edit', { id: s.id, price: -1 }), ['price']);
  });
});

describe('employee.list', () => {
  it('pages from 1 with itemsPerPage (default 30, max 30) and filters name= and name[]=', async () => {
    for (const name of ['Ann', 'Bob', 'Cy']) await v2Create(acme, '/hrm/employee', { name });
    const all = await reader.v3('GET', '/employee.list');
    expect(all.status, all.text).toBe(200);
    expect(all.body).toMatchObject({ page: 1, itemsPerPage: 30, totalItems: 3, totalPages: 1 });
    for (const item of (all.body as { items: unknown[] }).items) validate('Hrm.Employee', item);
    const one = await reader.v3('GET', '/employee.list?name=Bob');
    expect((one.body as { items: { name: string }[] }).items.map((e) => e.name)).toEqual(['Bob']);
    const some = await reader.v3('GET', '/employee.list?name[]=Ann&name[]=Cy&itemsPerPage=1&page=2');
    expect(some.body).toMatchObject({ page: 2, itemsPerPage: 1, totalItems: 2, totalPages: 2, items: [{ name: 'Cy' }] });
  });
  it('itemsPerPage over 30 or page below 1 is a clear 400; 403 without right', async () => {
    expect(expectProblem(await acme.v3('GET', '/employee.list?itemsPerPage=31'), 400).detail).toContain('itemsPerPage');
    expect(expectProblem(await acme.v3('GET', '/employee.list?page=0'), 400).detail).toContain('page');
    expect(expectProblem(await acme.v3('GET', '/employee.list?role=dev'), 400).detail).toContain('role');
    expectProblem(await nobody.v3('GET', '/employee.list'), 403);
  });
});

describe('problem details', () => {
  it('application/problem+json by default, application/json when only that is accepted', async () => {
    const a = await acme.v3('GET', '/project.get/project:missing');
    expect(a.headers['content-type']).toMatch(/^application\/problem\+json/);
    const b = await acme.v3('GET', '/project.get/project:missing', undefined, { headers: { accept: 'application/json' } });
    expect(b.headers['content-type']).toMatch(/^application\/json/);
    expect(b.body).toMatchObject({ type: '/errors/404', title: 'Not Found', status: 404 });
  });
});

describe('one service, two versions', () => {
  it('a service created through v3 is read and edited through v2, then read through v3: same id, same values', async () => {
    const created = await createService({
      name: 'Cross version',
      invoiceMethod: 'time_and_expenses',
      explanation: 'v3 made me',
      hourTypes: [{ hourTypeId: hourType(0), billable: true, tariff: 90 }],
    });
    const v2 = await v2Get<Record<string, unknown>>(acme, `/projects/service/${created.id}`);
    expect(v2).toMatchObject({
      id: created.id,
      project_id: project,
      name: 'Cross version',
      explanation: 'v3 made me',
      invoice_method: 'Hours',
      hour_types: [{ hourstype: { id: hourType(0) }, billable: true, tariff: 90 }],
    });
    const put = await acme.v2('PUT', `/projects/service/${created.id}`, {
      name: 'Cross version (v2)',
      hour_types: [
        { hourtype_id: hourType(0), billable: true, tariff: 95 },
        { hourtype_id: hourType(1), billable: false },
      ],
    });
    expect(put.status, put.text).toBe(200);
    const v3 = await acme.v3('GET', `/projectService.get/${created.id}`);
    expect(v3.status).toBe(200);
    expect(v3.body).toMatchObject({
      id: created.id,
      name: 'Cross version (v2)',
      explanation: 'v3 made me',
      invoiceMethod: 'time_and_expenses',
      hourTypes: [
        { hourTypeId: hourType(0), billable: true, tariff: 95 },
        { hourTypeId: hourType(1), billable: false },
      ],
    });
    // the hour type line kept its id through the v2 edit
    expect((v3.body as Service).hourTypes[0]?.id).toBe(created.hourTypes[0]?.id);
  });
});

describe('queries never change data', () => {
  it('every GET endpoint of v3 leaves the database as it was', async () => {
    const s = await createService();
    const paths = [
      `/project.get/${project}`,
      `/projectService.get/${s.id}`,
      '/projectService.advance.configuration',
      '/employee.list',
      '/employee.list?name=Ann&page=1&itemsPerPage=5',
      '/project.get/project:missing',
      '/organization.list',
      '/docs.json',
    ];
    const before = await databaseFingerprint(t.db);
    for (const path of paths) {
      const res = await acme.v3('GET', path);
      expect(res.status).toBeLessThan(500);
    }
    expect(await databaseFingerprint(t.db)).toEqual(before);
  });
});
