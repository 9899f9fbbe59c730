import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { expect } from 'vitest';
import type { HttpResponse } from './http.js';
import type { ApiClient } from './service.js';

type Validator = (name: string, value: unknown) => void;

/**
 * Checks v3 bodies against the schemas of the service's own /api/v3/docs.json,
 * so the published document and the real answers cannot drift apart.
 */
export async function documentValidator(client: ApiClient): Promise<Validator> {
  const res = await client.withToken(null).v3('GET', '/docs.json');
  expect(res.status).toBe(200);
  const doc = res.body as { components: { schemas: Record<string, object> } };
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  for (const [name, schema] of Object.entries(doc.components.schemas)) {
    ajv.addSchema(schema, `#/components/schemas/${name}`);
  }
  return (name, value) => {
    const validate = ajv.getSchema(`#/components/schemas/${name}`);
    expect(validate, `schema ${name} is in the document`).toBeDefined();
    const ok = validate?.(value);
    expect(ok, `${name}: ${JSON.stringify(validate?.errors)}`).toBe(true);
  };
}

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  violations?: { propertyPath: string; message: string; code: string }[];
}

/** Asserts a problem-details answer of `status`; answers the body. */
export function expectProblem(res: HttpResponse, status: number): Problem {
  expect(res.status, res.text).toBe(status);
  expect(String(res.headers['content-type'])).toMatch(/^application\/(problem\+)?json/);
  const p = res.body as Problem;
  expect(p).toMatchObject({ status, title: expect.any(String), detail: expect.any(String) });
  return p;
}

/** 422 with one violation per offending property, on the given paths. */
export function expectViolations(res: HttpResponse, paths: string[]): Problem {
  const p = expectProblem(res, 422);
  expect(p.type).toMatch(/^\/validation_errors\/[0-9a-f-]{36}$/);
  expect(p.violations?.map((v) => v.propertyPath).sort()).toEqual([...paths].sort());
  for (const path of paths) expect(p.detail).toContain(path);
  return p;
}

/** 422 from a business rule: a detail that explains, and no violations. */
export function expectBusinessRule(res: HttpResponse, mentions: string): Problem {
  const p = expectProblem(res, 422);
  expect(p.type).toBe('/errors/422');
  expect(p.violations).toBeUndefined();
  expect(p.detail).toContain(mentions);
  return p;
}
