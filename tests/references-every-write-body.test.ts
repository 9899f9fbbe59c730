import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AnyV2Resource, entityOf, v2Resources } from '@bo/api-v2';
import { endpoints } from '@bo/api-v3';
import type { AnyField } from '@bo/domain/shared/entity/fields';
import { referenceColumns } from '@bo/domain/shared/entity/reference-columns';
import { createdV2, type MinimalBodies, minimalV2Bodies } from './support/minimal-bodies.js';
import { type ApiClient, startTestService, type TestService } from './support/service.js';
import { databaseFingerprint } from './support/snapshot.js';

/**
 * Issue 28, section 3: every reference of every write body is checked. The cases are generated
 * from the contract's write schemas and the declarations, not listed by hand: for every v2 POST
 * and PUT, and every v3 command, every property of its body that carries an id (`<x>Id`, or
 * `<x>: {id}`) is sent naming a row of another environment, of the table the declarations say it
 * references. Each is refused (v2 400, v3 400 or 422 in problem details) naming the property, and
 * nothing is stored.
 */
let t: TestService;
let api: ApiClient;
let other: ApiClient;
let MINIMAL: MinimalBodies;

beforeAll(async () => {
  t = await startTestService();
  api = await t.environment('wb');
  other = await t.environment('wb-other');
  MINIMAL = minimalV2Bodies(t, api, 'wb');
  own = await ownRows();
  // rows of the other environment for every kind of reference a body can name
  const o = (path: string, body: Record<string, unknown>) => createdV2(other, path, body);
  const organization = await o('/crm/organization', { name: 'Other BV' });
  await o('/crm/person', { first_name: 'Other', family_name: 'Person' });
  const project = await o('/projects/project', { name: 'Other Project', organization_id: organization });
  await o('/projects/service', { project_id: project, name: 'Other Service', invoice_method: 'FixedFee' });
  const employee = await o('/hrm/employee', { name: 'Other Employee' });
  await o('/sales/sales', { subject: 'Other Sale', organization_id: organization });
  await o('/invoices/invoice', { organization_id: organization });
  await o('/services/defaultservice', { name: 'Other Default' });
  await o('/projects/assignmentstatus', { name: 'Other Status' });
  const person = await o('/crm/person', { first_name: 'Other', family_name: 'Contact' });
  // contact persons have no v2 write of their own: the other environment's one is made in the database
  await t.db.query(
    `INSERT INTO contact_person (id, environment_id, organization_id, person_id, updated_at)
     SELECT 'contactperson:other', e.id, $1, $2, now() FROM environment e WHERE e.name = 'wb-other'`,
    [organization, person],
  );
  const hourType = await foreignRow('hour_type');
  const hoursService = await o('/projects/service', {
    project_id: project,
    name: 'Other Hours',
    invoice_method: 'Hours',
    hour_types: [{ hourtype_id: hourType, billable: true }],
  });
  const read = await other.v2('GET', `/projects/service/${hoursService}`);
  const line = (read.body as { data: { hour_types: { id: string }[] } }).data.hour_types[0]?.id;
  await o('/projects/assignment', { projecthourstype_id: line, employees: [{ id: employee }], start_date: '2026-01-01' });
  await o('/hours/hours', {
    employee_id: employee,
    projectservice_id: hoursService,
    type_id: hourType,
    start_date: '2026-03-02',
    duration_in_minutes: 60,
  });
}, 120_000);

/** Bodies the shared smallest ones leave empty: a workflow starts from a default, linked to a record. */
async function minimalBody(path: string): Promise<Record<string, unknown>> {
  if (path === 'workflows/workflow') {
    const [flow] = await t.db.query<{ id: string }>(
      `SELECT d.id FROM default_workflow d JOIN environment e ON e.id = d.environment_id WHERE e.name = 'wb' LIMIT 1`,
    );
    return {
      default_workflow_id: flow?.id,
      linked_to: { organization_id: await createdV2(api, '/crm/organization', { name: 'W' }) },
    };
  }
  return (await MINIMAL[path]?.()) ?? {};
}
afterAll(() => t?.stop());

/** Rows of this test's own environment that the smallest v3 bodies name. */
interface OwnRows {
  organization: string;
  project: string;
  pitch: string;
  employee: string;
  hourType: string;
  hoursService: string;
  sale: string;
  invoice: string;
  defaultService: string;
  defaultWorkflow: string;
  leaveType: string;
  absenceType: string;
}
let own: OwnRows;

async function ownRow(table: string): Promise<string> {
  const [row] = await t.db.query<{ id: string }>(
    `SELECT x.id FROM "${table}" x JOIN environment e ON e.id = x.environment_id WHERE e.name = 'wb' LIMIT 1`,
  );
  return row?.id as string;
}

async function ownRows(): Promise<OwnRows> {
  const c = (path: string, body: Record<string, unknown>) => createdV2(api, path, body);
  const organization = await c('/crm/organization', { name: 'Own BV' });
  const project = await c('/projects/project', { name: 'Own Project', organization_id: organization });
  const employee = await c('/hrm/employee', { name: 'Own Employee' });
  const hourType = await ownRow('hour_type');
  const hoursService = await c('/projects/service', {
    project_id: project,
    name: 'Own Hours',
    invoice_method: 'Hours',
    hour_types: [{ hourtype_id: hourType, billable: true }],
  });
  const read = await api.v2('GET', `/projects/service/${hoursService}`);
  const line = (read.body as { data: { hour_types: { id: string }[] } }).data.hour_types[0]?.id;
  await c('/projects/assignment', { projecthourstype_id: line, employees: [{ id: employee }], start_date: '2026-01-01' });
  return {
    organization,
    project,
    pitch: await c('/projects/project', { name: 'Own Pitch', phase: 'acquisition' }),
    employee,
    hourType,
    hoursService,
    sale: await c('/sales/sales', { subject: 'Own Sale', organization_id: organization }),
    invoice: await c('/invoices/invoice', { organization_id: organization }),
    defaultService: await c('/services/defaultservice', { name: 'Own Default' }),
    defaultWorkflow: await ownRow('default_workflow'),
    leaveType: await ownRow('leave_type'),
    absenceType: await ownRow('absence_type'),
  };
}

const week = Object.fromEntries([8, 8, 8, 8, 8, 0, 0].map((h, n) => [`day${n + 1}`, { hours: h }]));

/** The smallest valid body of each v3 command whose body names a row: every reference a row of this environment. */
const V3_MINIMAL: Record<string, () => Record<string, unknown>> = {
  'projectService.create': () => ({ projectId: own.project, name: 'S', invoiceMethod: 'fixed_price' }),
  'projectService.acquisition.create': () => ({ projectId: own.pitch, name: 'A' }),
  'projectService.advance.create': () => ({ projectId: own.project, name: 'Advance', price: 10 }),
  'projectService.build': () => ({ projectId: own.project, defaultServiceId: own.defaultService }),
  'projectService.build.acquisition': () => ({ projectId: own.pitch, defaultServiceId: own.defaultService }),
  'project.acquisition.approve': () => ({ projectId: own.pitch }),
  'employee.create': () => ({ name: 'E' }),
  'quote.create': () => ({ saleId: own.sale }),
  'workflow.start': () => ({ defaultWorkflowId: own.defaultWorkflow, linkedTo: { organizationId: own.organization } }),
  'invoice.create': () => ({ organizationId: own.organization, lines: [{ description: 'x', price: 1 }] }),
  'payment.register': () => ({ invoiceId: own.invoice, date: '2026-01-01', amount: 5 }),
  'timetable.create': () => ({ employeeId: own.employee, startDate: '2030-01-01', evenWeek: week }),
  'leave.request': () => ({
    employeeId: own.employee,
    leaveTypeId: own.leaveType,
    startDate: '2025-05-05',
    endDate: '2025-05-06',
  }),
  'absence.report': () => ({ employeeId: own.employee, absenceTypeId: own.absenceType, startDate: '2025-04-01' }),
  'hours.create': () => ({
    employeeId: own.employee,
    projectServiceId: own.hoursService,
    hourTypeId: own.hourType,
    date: '2026-03-02',
    durationMinutes: 60,
  }),
  'hours.submit': () => ({ employeeId: own.employee, date: '2026-03-02' }),
  'hours.approve': () => ({ employeeId: own.employee, date: '2026-03-02' }),
  'hours.reject': () => ({ employeeId: own.employee, date: '2026-03-02' }),
  'timer.start': () => ({ employeeId: own.employee, projectServiceId: own.hoursService, hourTypeId: own.hourType }),
};

/** An edit command's record: made by its create command; `id` goes in the body or the path. */
const V3_EDITS: Record<string, { create: string; idIn: 'body' | 'path' }> = {
  'projectService.edit': { create: 'projectService.create', idIn: 'body' },
  'projectService.acquisition.edit': { create: 'projectService.acquisition.create', idIn: 'body' },
  'employee.edit': { create: 'employee.create', idIn: 'path' },
  'quote.edit': { create: 'quote.create', idIn: 'path' },
  'hours.edit': { create: 'hours.create', idIn: 'path' },
};

/**
 * Properties that address the record a command acts on (not a reference it stores): another
 * environment's record is not found (404), as an id in the path would be.
 */
const V3_SUBJECTS: Record<string, string> = { 'project.acquisition.approve': 'projectId' };

/** Where a property's column names more than one table over the schema, the table this command's property names. */
const V3_TARGETS: Record<string, Record<string, string>> = {
  'employee.create': { statusId: 'employee_status' },
  'employee.edit': { statusId: 'employee_status' },
};

interface Def {
  type: string;
  shape?: Record<string, unknown>;
  innerType?: unknown;
  in?: unknown;
  out?: unknown;
}
const defOf = (s: unknown): Def => (s as { _zod: { def: Def } })._zod.def;

/** The object a write schema is, past optional, default and preprocess wrappers. */
function objectShape(schema: unknown): Record<string, unknown> | undefined {
  let s = schema;
  for (let i = 0; i < 8 && s; i += 1) {
    const def = defOf(s);
    if (def.type === 'object') return def.shape;
    s = def.type === 'pipe' ? (defOf(def.in).type === 'transform' ? def.out : def.in) : def.innerType;
  }
  return undefined;
}

/** The properties of a write body that carry an id: `<x>Id`, or `<x>` given as `{id}`. */
function idProperties(schema: unknown): { key: string; asObject: boolean }[] {
  const shape = objectShape(schema) ?? {};
  return Object.entries(shape).flatMap(([key, field]): { key: string; asObject: boolean }[] => {
    if (key.endsWith('Id') && objectShape(field) === undefined) return [{ key, asObject: false }];
    const inner = objectShape(field);
    return inner && 'id' in inner && Object.keys(inner).length <= 2 ? [{ key, asObject: true }] : [];
  });
}

const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** Column name → the tables the declarations say it references, over every table. */
function targetsByColumn(): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const columns of referenceColumns().values()) {
    for (const [column, role] of columns) {
      if (role.kind !== 'reference') continue;
      const set = out.get(column) ?? new Set();
      set.add(role.target);
      out.set(column, set);
    }
  }
  return out;
}

/**
 * Body properties that name a row but are stored under another column or not at all, with the table
 * the write checks them against: an approval's status (stored as its key), a workflow's assignee
 * (stored on each task).
 */
const BODY_ONLY_REFERENCES: Record<string, string> = {
  approvalStatusId: 'approval_status',
  assigneeId: 'employee',
};

/** The table a property references: the entity's own declaration first, else the one table its column names everywhere. */
function targetOf(fields: Record<string, AnyField>, key: string, byColumn: Map<string, Set<string>>): string | undefined {
  const own = fields[key];
  if (own?.kind === 'scalar' && own.references) return own.references().table;
  if (own?.kind === 'ref') return own.target().table;
  const base = fields[key.replace(/Id$/, '')];
  if (base?.kind === 'ref') return base.target().table;
  const tables = byColumn.get(snake(key.endsWith('Id') ? key : `${key}Id`));
  return tables?.size === 1 ? [...tables][0] : BODY_ONLY_REFERENCES[key];
}

async function foreignRow(table: string): Promise<string | undefined> {
  const rows = await t.db.query<{ id: string }>(
    `SELECT x.id FROM "${table}" x JOIN environment e ON e.id = x.environment_id WHERE e.name = 'wb-other' LIMIT 1`,
  );
  return rows[0]?.id;
}

/** Every table but the tokens' last use, which any authenticated request may record. */
async function snapshot(): Promise<Record<string, string>> {
  const { api_token: _lastUse, ...rest } = await databaseFingerprint(t.db);
  return rest;
}

interface Case {
  door: 'v2' | 'v3';
  write: string;
  key: string;
  wireKey: string;
  table: string | undefined;
  asObject: boolean;
  /** makes what the write needs (its smallest body, the row a PUT changes); null where it cannot be made */
  prepare: () => Promise<((foreign: string) => Promise<{ status: number; text: string }>) | null>;
}

function v2Cases(byColumn: Map<string, Set<string>>): Case[] {
  const cases: Case[] = [];
  for (const resource of v2Resources as AnyV2Resource[]) {
    const fields = entityOf(resource).fields as Record<string, AnyField>;
    for (const [method, schema] of [
      ['POST', resource.inputs?.create],
      ['PUT', resource.inputs?.update],
    ] as const) {
      if (
        !schema ||
        (method === 'PUT' && resource.methods?.update === false) ||
        (method === 'POST' && resource.methods?.create === false)
      )
        continue;
      for (const { key, asObject } of idProperties(schema)) {
        const wireKey = resource.names.toV2(key);
        cases.push({
          door: 'v2',
          write: `${method} ${resource.path}`,
          key,
          wireKey,
          table: targetOf(fields, key, byColumn),
          asObject,
          prepare: async () => {
            const minimal = await minimalBody(resource.path);
            const value = (foreign: string) => (asObject ? { id: foreign } : foreign);
            if (method === 'POST') {
              return (foreign) => api.v2('POST', `/${resource.path}`, { ...minimal, [wireKey]: value(foreign) });
            }
            const made = await api.v2('POST', `/${resource.path}`, minimal);
            // a resource whose smallest body names made-up rows cannot be created here: its POST case covers it
            if (made.status !== 200) return null;
            const id = (made.body as { data: { id: string } }).data.id;
            return (foreign) => api.v2('PUT', `/${resource.path}/${id}`, { [wireKey]: value(foreign) });
          },
        });
      }
    }
  }
  return cases;
}

function v3Cases(byColumn: Map<string, Set<string>>): Case[] {
  const cases: Case[] = [];
  for (const [name, endpoint] of Object.entries(endpoints)) {
    if (endpoint.kind !== 'command') continue;
    for (const { key, asObject } of idProperties(endpoint.doc.request.schema)) {
      const edit = V3_EDITS[name];
      cases.push({
        door: 'v3',
        write: name,
        key,
        wireKey: key,
        table: V3_TARGETS[name]?.[key] ?? targetOf({}, key, byColumn),
        asObject,
        prepare: async () => {
          const value = (foreign: string) => (asObject ? { id: foreign } : foreign);
          if (!edit) {
            const minimal = V3_MINIMAL[name];
            if (!minimal) throw new Error(`${name} ${key}: no smallest body in this test`);
            return (foreign) => api.v3('POST', `/${name}`, { ...minimal(), [key]: value(foreign) });
          }
          const made = await api.v3('POST', `/${edit.create}`, V3_MINIMAL[edit.create]?.());
          expect(made.status, `${edit.create}: ${made.text}`).toBeLessThan(300);
          const id = (made.body as { id: string }).id;
          return (foreign) =>
            edit.idIn === 'path'
              ? api.v3('POST', `/${name}/${id}`, { [key]: value(foreign) })
              : api.v3('POST', `/${name}`, { id, [key]: value(foreign) });
        },
      });
    }
  }
  return cases;
}

/** Runs each case: a row of another environment named, refused naming the property, nothing stored. */
async function failuresOf(cases: Case[], refused: (status: number, c: Case) => boolean): Promise<string[]> {
  const failures: string[] = [];
  for (const c of cases) {
    const foreign = await foreignRow(c.table as string);
    if (!foreign) {
      failures.push(`${c.write} ${c.wireKey}: no row of ${c.table} in the other environment to send`);
      continue;
    }
    const send = await c.prepare();
    if (!send) continue;
    const before = await snapshot();
    const res = await send(foreign);
    if (!refused(res.status, c) || !res.text.includes(c.wireKey.replace(/_id$|Id$/, ''))) {
      failures.push(`${c.write} ${c.wireKey} = ${c.table} of another environment: ${res.status} ${res.text.slice(0, 200)}`);
    }
    // the door's shape: v2's envelope, v3's problem details
    const shaped = c.door === 'v2' ? res.text.includes('"errors"') : res.text.includes('"type"') && res.text.includes('"status"');
    if (!shaped) failures.push(`${c.write} ${c.wireKey}: not in the ${c.door} error shape: ${res.text.slice(0, 200)}`);
    if (JSON.stringify(await snapshot()) !== JSON.stringify(before))
      failures.push(`${c.write} ${c.wireKey}: something was stored`);
  }
  return failures;
}

describe('every reference of every write body is checked', () => {
  it('v2: every id property of every POST and PUT body, naming a row of another environment, is refused with 400 naming it, nothing stored', async () => {
    const byColumn = targetsByColumn();
    const cases = v2Cases(byColumn);
    expect(cases.length).toBeGreaterThan(40);
    const unresolved = cases.filter((c) => !c.table).map((c) => `${c.write} ${c.wireKey}`);
    expect(unresolved, 'a property whose referenced table no declaration names').toEqual([]);
    const failures = await failuresOf(cases, (status) => status === 400);
    expect(failures).toEqual([]);
  }, 600_000);

  it('v3: every id property of every command body, naming a row of another environment, is refused (400 or 422, problem details) naming it, nothing stored', async () => {
    const cases = v3Cases(targetsByColumn());
    expect(cases.length).toBeGreaterThan(30);
    const unresolved = cases.filter((c) => !c.table).map((c) => `${c.write} ${c.key}`);
    expect(unresolved, 'a property whose referenced table no declaration names').toEqual([]);
    const withoutBody = cases.filter((c) => !V3_MINIMAL[c.write] && !V3_EDITS[c.write]).map((c) => `${c.write} ${c.key}`);
    expect(withoutBody, 'give each command a smallest body here').toEqual([]);
    const failures = await failuresOf(
      cases,
      (status, c) => status === 400 || status === 422 || (status === 404 && V3_SUBJECTS[c.write] === c.key),
    );
    expect(failures).toEqual([]);
  }, 600_000);
});
