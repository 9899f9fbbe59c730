import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, startTestService, type TestService } from './support/service.js';

/**
 * The v2 OpenAPI document is generated from the v2 resource declarations. Checked
 * against the reference (../shared/reference/v2-contract.json): for every path both
 * have, the read schema names every property the reference's read definition names.
 */
type Schema = { $ref?: string; properties?: Record<string, Schema>; items?: Schema };
const here = path.dirname(fileURLToPath(import.meta.url));
const reference = JSON.parse(readFileSync(path.resolve(here, '../../shared/reference/v2-contract.json'), 'utf8')) as {
  paths: Record<string, Record<string, { responses?: Record<string, { schema?: Schema }> }>>;
  definitions: Record<string, Schema>;
};

let t: TestService;
let anonymous: ApiClient;

beforeAll(async () => {
  t = await startTestService();
  anonymous = (await t.environment('docs')).withToken(null);
});
afterAll(() => t?.stop());

type Doc = {
  paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: Schema }> }> }>>;
  components: { schemas: Record<string, Schema> };
};

async function document(): Promise<Doc> {
  const res = await anonymous.v2('GET', '/docs.json');
  expect(res.status).toBe(200);
  return res.body as Doc;
}

const deref = (s: Schema | undefined, defs: Record<string, Schema>): Schema | undefined =>
  s?.$ref ? defs[s.$ref.split('/').pop() ?? ''] : s;

/** The property names of the record a GET answers in its `data` (the item for a list). */
function readProperties(data: Schema | undefined, defs: Record<string, Schema>): string[] {
  const d = deref(data, defs);
  const record = d?.items ? deref(d.items, defs) : d;
  return Object.keys(record?.properties ?? {});
}

/** `/crm/organization/{id}` and `/crm/organization/{organization_id}` are the same path. */
const normal = (p: string) => p.replace(/\{[^}]+\}/g, '{}');

describe('the v2 OpenAPI document', () => {
  it('is served without a token at /api/v2/docs.json and is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate((await document()) as unknown as Parameters<Validator['validate']>[0]);
    expect(result.errors ?? [], JSON.stringify(result.errors)).toEqual([]);
    expect(validator.version).toBe('3.1');
  });

  it('documents every resource with the collection parameters and the envelope', async () => {
    const doc = await document();
    const list = doc.paths['/crm/organization']?.get as unknown as { parameters: { name: string }[] };
    expect(list.parameters.map((p) => p.name).sort()).toEqual(['limit', 'metadata', 'offset', 'q', 'select', 'sort']);
    const ok = doc.paths['/crm/organization']?.get?.responses['200']?.content?.['application/json']?.schema;
    expect(Object.keys(ok?.properties ?? {}).sort()).toEqual(['data', 'debug', 'errors', 'metadata']);
    expect(doc.paths['/crm/organization/{id}']).toHaveProperty('put');
    expect(doc.paths['/crm/organization/{id}']).toHaveProperty('delete');
  });

  it('the v2 document covers the reference properties: for every path both have, the read names every property the reference names', async () => {
    const doc = await document();
    const ours = new Map(Object.entries(doc.paths).map(([p, ops]) => [normal(p), ops]));
    let compared = 0;
    const missing: string[] = [];
    for (const [refPath, ops] of Object.entries(reference.paths)) {
      const mine = ours.get(normal(refPath));
      const refData = ops.get?.responses?.['200']?.schema;
      if (!mine?.get || !refData) continue;
      const refProps = readProperties(deref(refData, reference.definitions)?.properties?.data, reference.definitions);
      const ourData = mine.get.responses['200']?.content?.['application/json']?.schema?.properties?.data;
      const ourProps = new Set(readProperties(ourData, doc.components.schemas));
      for (const p of refProps) if (!ourProps.has(p)) missing.push(`${refPath}: ${p}`);
      compared += 1;
    }
    expect(compared).toBeGreaterThan(0);
    expect(missing).toEqual([]);
  });

  it('a browsable reference page is served without a token at /api/v2/docs', async () => {
    const res = await anonymous.v2('GET', '/docs');
    expect(res.status).toBe(200);
    expect(String(res.headers['content-type'])).toMatch(/^text\/html/);
    expect(res.text).toContain('/api/v2/docs.json');
    expect(res.text).toContain('/api/v2/docs/standalone.js');
    expect(res.text).not.toMatch(/<script[^>]+src="https?:/);
  });
});
