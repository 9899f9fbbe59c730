import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entityOf, v2Resources } from '@bo/api-v2';
import { type ApiClient, startTestService, type TestService } from './support/service.js';
import { databaseFingerprint } from './support/snapshot.js';
import { createdV2, type MinimalBodies, minimalV2Bodies } from './support/minimal-bodies.js';

/**
 * References are checked on every write, in one place: every reference an entity
 * declares (and every id its writes name) must be a row of the right entity in the
 * caller's environment. For every v2 resource with writes, every declared reference
 * is sent made up and from another environment: 400 naming the field, nothing stored.
 */
let t: TestService;
let api: ApiClient;
let other: ApiClient;

let MINIMAL: MinimalBodies;

beforeAll(async () => {
  t = await startTestService();
  api = await t.environment('refs');
  other = await t.environment('refs-other');
  MINIMAL = minimalV2Bodies(t, api, 'refs');
});
afterAll(() => t?.stop());

/** Every table but the tokens' last use, which any authenticated request may record (one-minute resolution). */
async function snapshot(db: TestService['db']): Promise<Record<string, string>> {
  const { api_token: _lastUse, ...rest } = await databaseFingerprint(db);
  return rest;
}

/** Whether a write takes the reference as `{id}` (an object schema) rather than the id itself. */
function refsAreObjects(schema: unknown): boolean {
  let s = schema as { _zod?: { def: { type: string; innerType?: unknown } } } | undefined;
  for (let i = 0; i < 4 && s?._zod; i += 1) {
    if (s._zod.def.type === 'object') return true;
    s = s._zod.def.innerType as typeof s;
  }
  return false;
}

/** A row of the target table in the other environment, when it has one. */
async function foreignId(table: string): Promise<string | null> {
  const rows = await t.db.query<{ id: string }>(
    `SELECT x.id FROM "${table}" x JOIN environment e ON e.id = x.environment_id WHERE e.name = 'refs-other' LIMIT 1`,
  );
  return rows[0]?.id ?? null;
}

describe('references are checked on every write', () => {
  const writable = v2Resources.filter((r) => r.inputs?.create);

  it('every v2 resource with writes has a minimal body in this test', () => {
    expect(writable.map((r) => r.path).filter((p) => !MINIMAL[p])).toEqual([]);
  });

  for (const resource of writable) {
    // declared references: to-one relations, and plain ids that name a row of an entity
    const refs = Object.entries(
      entityOf(resource).fields as Record<
        string,
        { kind: string; writable: boolean; target?: () => { table: string }; references?: () => { table: string } }
      >,
    )
      .filter(([, f]) => f.writable && (f.kind === 'ref' || (f.kind === 'scalar' && f.references)))
      .map(([name, f]) => [name, { ...f, target: f.target ?? f.references }] as const);
    const inputShape = (resource.inputs?.create as unknown as { shape?: Record<string, unknown> } | undefined)?.shape ?? {};
    for (const [name, field] of refs) {
      // the form the write takes: `{id}` under the field's name, or the id under `<name>Id`
      const asObject = name in inputShape && refsAreObjects(inputShape[name]);
      const key = resource.names.toV2(asObject || name.endsWith('Id') ? name : `${name}Id`);
      const value = (id: string) => (asObject ? { id } : id);
      it(`${resource.path}: ${key} must name a row of this environment`, async () => {
        void other;
        const path = `/${resource.path}`;
        const table = field.target?.().table ?? '';
        const minimal = (await MINIMAL[resource.path]?.()) ?? {};
        const before = await snapshot(t.db);
        const madeUp = await api.v2('POST', path, { ...minimal, [key]: value(`${table}:made-up`) });
        expect(madeUp.status, madeUp.text).toBe(400);
        expect(madeUp.text).toContain(key);
        const foreign = await foreignId(table);
        if (foreign) {
          const res = await api.v2('POST', path, { ...minimal, [key]: value(foreign) });
          expect(res.status, res.text).toBe(400);
        }
        expect(await snapshot(t.db)).toEqual(before);
      });
    }
  }
});

describe('references are checked on every write: the ids a write names beyond its declared relations', () => {
  it('timeline/message: created_by_id must be a user of this environment (an author cannot be forged)', async () => {
    const organization = await createdV2(api, '/crm/organization', { name: 'Timeline Ref BV' });
    const [own] = await t.db.query<{ id: string }>(
      `SELECT u.id FROM user_account u JOIN environment e ON e.id = u.environment_id WHERE e.name = 'refs' LIMIT 1`,
    );
    const [foreign] = await t.db.query<{ id: string }>(
      `SELECT u.id FROM user_account u JOIN environment e ON e.id = u.environment_id WHERE e.name = 'refs-other' LIMIT 1`,
    );
    const body = (createdBy: string | undefined, messageType?: string) => ({
      title: 'Call',
      linked_to: { organization_id: organization },
      ...(createdBy ? { created_by_id: createdBy } : {}),
      ...(messageType ? { messagetype_id: messageType } : {}),
    });
    const before = await snapshot(t.db);
    for (const [createdBy, messageType] of [
      ['user:made-up', undefined],
      [foreign?.id, undefined],
      [undefined, 'messagetype:made-up'],
    ] as const) {
      const res = await api.v2('POST', '/timeline/message', body(createdBy, messageType));
      expect(res.status, res.text).toBe(400);
      expect(res.text).toContain(messageType ? 'messagetype_id' : 'created_by_id');
    }
    expect(await snapshot(t.db)).toEqual(before);
    const ok = await api.v2('POST', '/timeline/message', body(own?.id));
    expect(ok.status, ok.text).toBe(200);
  });
});
