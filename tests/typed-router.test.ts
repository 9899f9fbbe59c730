import { request } from 'node:https';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';
import type { AppRouter, createCaller } from '@bo/domain';
import type { Organization } from '@bo/domain/crm/organization/organization.entity';
import { type OrganizationRead, organizationsChangedSince } from '../packages/domain/examples/organizations-changed-since.js';
import { startTestService, type TestService } from './support/service.js';

/**
 * The tRPC core is typed end to end: a read returns the declared entity type, and the
 * internal-tool example compiles against the router's inferred outputs and runs.
 */
let t: TestService;

beforeAll(async () => {
  t = await startTestService();
});
afterAll(() => t?.stop());

/** fetch over node:https to 127.0.0.1, trusting the test service's self-signed certificate. */
const selfSignedFetch = ((input: string | URL | Request, init?: RequestInit) =>
  new Promise<Response>((resolve, reject) => {
    const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
    const req = request(
      url,
      {
        method: init?.method ?? 'GET',
        headers: Object.fromEntries(new Headers(init?.headers).entries()),
        rejectUnauthorized: false,
        lookup: (_host, _opts, cb) => cb(null, [{ address: '127.0.0.1', family: 4 }]),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve(
            new Response(Buffer.concat(chunks), {
              status: res.statusCode ?? 500,
              headers: Object.entries(res.headers).flatMap(([k, v]) =>
                v === undefined ? [] : (Array.isArray(v) ? v : [v]).map((x): [string, string] => [k, x]),
              ),
            }),
          ),
        );
      },
    );
    req.on('error', reject);
    req.end(typeof init?.body === 'string' ? init.body : undefined);
  })) as typeof fetch;

describe('the typed tRPC core', () => {
  it('a read returns the declared entity type (type-level)', () => {
    // in process: the entity's row type, the z.infer of its declared output schema
    type Caller = ReturnType<typeof createCaller>;
    expectTypeOf<Awaited<ReturnType<Caller['crm']['organization']['get']>>>().toEqualTypeOf<Organization>();
    expectTypeOf<Awaited<ReturnType<Caller['crm']['organization']['list']>>['items']>().toEqualTypeOf<Organization[]>();
    expectTypeOf<Organization['updatedAt']>().toEqualTypeOf<Date>();
    // over /trpc: the same entity as JSON carries it
    type Outputs = inferRouterOutputs<AppRouter>;
    expectTypeOf<OrganizationRead>().toEqualTypeOf<Outputs['crm']['organization']['get']>();
    expectTypeOf<OrganizationRead['updatedAt']>().toEqualTypeOf<string>();
    expectTypeOf<OrganizationRead['name']>().toEqualTypeOf<string>();
    expectTypeOf<OrganizationRead['relationType']>().toEqualTypeOf<{
      id: string;
      label: string;
      color: string | null;
      type: string | null;
    } | null>();
    type Inputs = inferRouterInputs<AppRouter>;
    expectTypeOf<Inputs['crm']['organization']['create']['data']['name']>().toEqualTypeOf<string>();
  });

  it('the typed example compiles and reports the organizations changed since a date', async () => {
    const api = await t.environment('typed');
    const before = new Date(Date.now() - 1000);
    const created = await api.v2('POST', '/crm/organization', { name: 'Typed Report BV' });
    expect(created.status).toBe(200);
    const access = {
      url: `https://typed.localhost:${t.service.port}/trpc`,
      key: api.token?.key ?? '',
      secret: api.token?.secret ?? '',
      fetch: selfSignedFetch,
    };
    const report = await organizationsChangedSince(access, before);
    expect(report.map((r) => r.name)).toEqual(['Typed Report BV']);
    expect(new Date(report[0]?.changedAt ?? '').getTime()).toBeGreaterThanOrEqual(before.getTime());
    expect(await organizationsChangedSince(access, new Date(Date.now() + 60_000))).toEqual([]);
  });
});
