import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Envelope } from './support/crm.js';
import { type ApiClient, startTestService, type TestService } from './support/service.js';

/**
 * Contract coverage: every path × method of the reference (../shared/reference/v2-contract.json)
 * is probed over HTTP; a route that does not exist answers the adapter's own
 * `no such endpoint`. The paths the service has built are required; the rest are
 * listed (and counted) so that what is missing is said, not hidden.
 */
const here = path.dirname(fileURLToPath(import.meta.url));
const reference = JSON.parse(readFileSync(path.resolve(here, '../../shared/reference/v2-contract.json'), 'utf8')) as {
  paths: Record<string, Record<string, unknown>>;
};

/** Areas the service serves in full: every reference path under them must have a route. */
const REQUIRED_PREFIXES = [
  '/crm/organization',
  '/crm/person',
  '/crm/contactperson',
  '/crm/mergeorganization',
  '/crm/mergeperson',
  '/merger/',
  '/workflows/',
  '/projects/project',
  '/projects/service',
  '/projects/assignment',
  '/projects/purchase',
  '/projects/projectemployee',
  '/services/defaultservice',
  '/sales/',
  '/sale/',
  '/timeline/',
  '/upload/',
  '/customfields/',
  '/documents/',
  '/crm/document',
  '/projects/document',
  '/projects/assignmentstatus',
  '/shared/',
  '/invoices/',
  '/projects/reverseinvoice',
  '/hrm/',
  '/hours/',
  '/mileage/',
  '/timers/',
  '/costs/',
];

/** Operations of the areas above that are not built yet, each with its issue (none today). */
const NOT_YET: RegExp[] = [];

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
  it('every reference path of the areas the service serves has a route, and what is missing elsewhere is listed', async () => {
    const missing: string[] = [];
    let total = 0;
    for (const [refPath, ops] of Object.entries(reference.paths)) {
      for (const method of Object.keys(ops)) {
        if (!['get', 'post', 'put', 'delete'].includes(method)) continue;
        total += 1;
        if (!(await routed(method, refPath))) missing.push(`${method.toUpperCase()} ${refPath}`);
      }
    }
    const required = missing.filter((m) => {
      const p = m.split(' ')[1] ?? '';
      const under = (prefix: string) =>
        prefix.endsWith('/') ? p.startsWith(prefix) : p === prefix || p.startsWith(`${prefix}/`);
      return REQUIRED_PREFIXES.some(under) && !NOT_YET.some((r) => r.test(m));
    });
    console.log(`v2 contract coverage: ${total - missing.length} of ${total} reference operations routed`);
    console.log(`not routed yet (${missing.length}):\n  ${missing.join('\n  ')}`);
    expect(required).toEqual([]);
    expect(total - missing.length).toBeGreaterThan(0);
  });
});
