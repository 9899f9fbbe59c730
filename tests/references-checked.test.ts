import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { v2Resources } from '@bo/api-v2';
import { type ApiClient, startTestService, type TestService } from './support/service.js';
import { databaseFingerprint } from './support/snapshot.js';

/**
 * References are checked on every write, in one place: every reference an entity
 * declares (and every id its writes name) must be a row of the right entity in the
 * caller's environment. For every v2 resource with writes, every declared reference
 * is sent made up and from another environment: 400 naming the field, nothing stored.
 */
let t: TestService;
let api: ApiClient;
let other: ApiClient;

/** The smallest valid create body of each v2 resource with writes. */
const MINIMAL: Record<string, () => Record<string, unknown>> = {
  'crm/organization': () => ({ name: 'Ref Check BV' }),
  // its references are in linked_to, checked by tests/workflows.test.ts
  'workflows/workflow': () => ({}),
};

beforeAll(async () => {
  t = await startTestService();
  api = await t.environment('refs');
  other = await t.environment('refs-other');
});
afterAll(() => t?.stop());

/** Every table but the tokens' last use, which any authenticated request may record (one-minute resolution). */
async function snapshot(db: TestService['db']): Promise<Record<string, string>> {
  const { api_token: _lastUse, ...rest } = await databaseFingerprint(db);
  return rest;
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
    const refs = Object.entries(
      resource.entity.fields as Record<string, { kind: string; writable: boolean; target?: () => { table: string } }>,
    ).filter(([, f]) => f.kind === 'ref' && f.writable);
    const inputShape = (resource.inputs?.create as unknown as { shape?: Record<string, unknown> } | undefined)?.shape ?? {};
    for (const [name, field] of refs) {
      // the form the write takes: `{id}` under the field's name, or the id under `<name>Id`
      const asObject = name in inputShape;
      const key = resource.names.toV2(asObject ? name : `${name}Id`);
      const value = (id: string) => (asObject ? { id } : id);
      it(`${resource.path}: ${key} must name a row of this environment`, async () => {
        void other;
        const path = `/${resource.path}`;
        const table = field.target?.().table ?? '';
        const before = await snapshot(t.db);
        const madeUp = await api.v2('POST', path, { ...MINIMAL[resource.path]?.(), [key]: value(`${table}:made-up`) });
        expect(madeUp.status, madeUp.text).toBe(400);
        expect(madeUp.text).toContain(key);
        const foreign = await foreignId(table);
        if (foreign) {
          const res = await api.v2('POST', path, { ...MINIMAL[resource.path]?.(), [key]: value(foreign) });
          expect(res.status, res.text).toBe(400);
        }
        expect(await snapshot(t.db)).toEqual(before);
      });
    }
  }
});
