import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Envelope } from './support/crm.js';
import { type ApiClient, startTestService, type TestService } from './support/service.js';

/**
 * Contract coverage: every path × method of the reference (../shared/reference/v2-contract.json)
 * is probed over HTTP; a route that does not exist answers the adapter's own
 * `no such endpoint`. Every one is required (issue 14: the coverage reaches 100%);
 * a missing one is listed by name.
 */
const here = path.dirname(fileURLToPath(import.meta.url));
const reference = JSON.parse(readFileSync(path.resolve(here, '../../shared/reference/v2-contract.json'), 'utf8')) as {
  paths: Record<string, Record<string, unknown>>;
};

let t: TestService;
let api: ApiClient;

beforeAll(async () => {
  t = await startTestService();
  api = await t.environment('coverage');
});
afterAll(() => t?.stop());

/** True when the service has a route for the method and path (whatever it answers to this probe). */
async function routed(method: string, refPath: string): Promise<boolean> {
  const concrete = refPath.replace(/\{[^}]+\}/g, 'coverage:probe');
  const res = await api.v2(method.toUpperCase(), concrete, method === 'get' || method === 'delete' ? undefined : {});
  const errors = (res.body as Envelope | undefined)?.errors ?? [];
  return !(res.status === 404 && errors.includes('no such endpoint'));
}

describe('v2 contract coverage', () => {
  it('every reference path and method has a route (100% coverage); a missing one is named', async () => {
    const missing: string[] = [];
    let total = 0;
    for (const [refPath, ops] of Object.entries(reference.paths)) {
      for (const method of Object.keys(ops)) {
        if (!['get', 'post', 'put', 'delete'].includes(method)) continue;
        total += 1;
        if (!(await routed(method, refPath))) missing.push(`${method.toUpperCase()} ${refPath}`);
      }
    }
    console.log(`v2 contract coverage: ${total - missing.length} of ${total} reference operations routed`);
    expect(missing).toEqual([]);
    expect(total).toBe(298);
  });
});

describe('v2 routes by module', () => {
  it('a path is routed whatever its case and with a trailing slash, as express routes it; an unknown module is no such endpoint', async () => {
    const created = await api.v2('POST', '/crm/organization', { name: 'Routed Case' });
    expect(created.status).toBe(200);
    const id = (created.body as Envelope<{ id: string }>).data.id;
    for (const p of [`/crm/organization/${id}`, `/CRM/Organization/${id}`, `/crm/organization/${id}/`]) {
      const res = await api.v2('GET', p);
      expect(res.status, p).toBe(200);
      expect((res.body as Envelope<{ id: string; name: string }>).data).toMatchObject({ id, name: 'Routed Case' });
    }
    const unknown = await api.v2('GET', '/nomodule/organization');
    expect(unknown.status).toBe(404);
    expect((unknown.body as Envelope).errors).toEqual(['no such endpoint']);
  });

  it('the last mounted resource and operation answer (each module has its own router)', async () => {
    // the timer and the change feed are mounted after the other 120 resources
    for (const p of ['/timers/timer', '/changes']) {
      const res = await api.v2('GET', p);
      expect(res.status, p).not.toBe(404);
    }
  });
});
