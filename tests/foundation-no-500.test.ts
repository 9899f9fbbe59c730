import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, startTestService, type TestService } from './support/service.js';

let t: TestService;
let acme: ApiClient;
let existingId: string;

beforeAll(async () => {
  t = await startTestService();
  acme = await t.environment('acme');
  existingId = ((await acme.v2('POST', '/crm/organization', { name: 'Fuzz Target' })).body as { data: { id: string } }).data.id;
});
afterAll(() => t?.stop());

function isV2Envelope(body: unknown): boolean {
  return typeof body === 'object' && body !== null && 'data' in body && 'errors' in body && 'debug' in body;
}

describe('no input produces a 500', () => {
  it.each([
    ['a NUL byte in an id', 'GET', '/crm/organization/%00', undefined, 400],
    ['a NUL byte in a filter', 'GET', '/crm/organization?q[name]=%00', undefined, 400],
    ['a NUL byte in a nested filter', 'GET', '/crm/organization?q[relation_type.label]=a%00', undefined, 400],
    ['a NUL byte in an in-list', 'GET', '/crm/organization?q[name][in]=%00,b', undefined, 400],
    // a prefix alone is a range whose successor PostgreSQL computes: bytes that are not text, and the last code point
    ['a NUL byte in a prefix', 'GET', '/crm/organization?q[name]=a%00*&metadata=count', undefined, 400],
    ['a lone surrogate in a prefix', 'GET', '/crm/organization?q[name]=%ED%A0%80*&metadata=count', undefined, 200],
    ['the last code point as a prefix', 'GET', '/crm/organization?q[name]=%F4%8F%BF%BF*&metadata=count', undefined, 200],
    [
      'the last code point after a letter as a prefix',
      'GET',
      '/crm/organization?q[name]=a%F4%8F%BF%BF*&metadata=count',
      undefined,
      200,
    ],
    ['a year before 1', 'GET', '/crm/organization?q[created_at][ge]=0000-01-01', undefined, 400],
    ['an offset beyond safe integers', 'GET', '/crm/organization?offset=99999999999999999999', undefined, 400],
    // any limit above the maximum is cut to 100 (README), however large
    ['a limit beyond safe integers', 'GET', '/crm/organization?limit=99999999999999999999', undefined, 200],
    ['a path that is not valid percent-encoding', 'GET', '/crm/organization/%E0%A4%A', undefined, 400],
    ['a NUL byte in a body string', 'POST', '/crm/organization', { name: 'a\u0000b' }, 400],
    [
      'a NUL byte in a nested body string',
      'POST',
      '/crm/organization',
      { name: 'x', visiting_address: { line_1: '\u0000' } },
      400,
    ],
    ['a NUL byte in a reference id', 'POST', '/crm/organization', { name: 'x', relation_type: { id: '\u0000' } }, 400],
  ])('%s: %s %s %j → %i', async (_name, method, path, body, status) => {
    const res = await acme.v2(method, path, body);
    expect(res.status, res.text).toBe(status);
    expect(isV2Envelope(res.body)).toBe(true);
  });

  it('v3 answers NUL bytes with a 400 problem', async () => {
    const get = await acme.v3('GET', '/organization.get/%00');
    expect(get.status).toBe(400);
    const list = await acme.v3('GET', '/organization.list?name=%00');
    expect(list.status).toBe(400);
    expect(list.body).toMatchObject({ type: '/errors/400', status: 400 });
  });

  // property: whatever the query string, a collection read answers below 500, in the envelope
  const segment = fc.oneof(
    fc.constantFrom(
      'name',
      'id',
      'created_at',
      'updated_at',
      'is_active',
      'relation_type',
      'visiting_address',
      'custom_fields',
      'x',
    ),
    fc.string({ maxLength: 6 }),
  );
  const path = fc.array(segment, { minLength: 1, maxLength: 3 }).map((s) => s.join('.'));
  const op = fc.constantFrom('', '[]', '[ge]', '[gt]', '[le]', '[lt]', '[in]', '[nin]', '[like]', '[');
  const value = fc.oneof(
    fc.constantFrom(
      '*',
      'null',
      'Acme*',
      '*cme*',
      '2024-01-01',
      '2024-01-01 10:00:00',
      'true',
      '1,2,3',
      '',
      '%00',
      '9999999999999999999999',
    ),
    fc.string({ maxLength: 12 }),
  );
  const param = fc.oneof(
    fc
      .tuple(fc.constantFrom('q[', 'q[or]['), path, op, value)
      .map(([p, f, o, v]) => `${p}${encodeURIComponent(f)}]${o}=${encodeURIComponent(v)}`),
    fc
      .tuple(fc.constantFrom('sort', 'select', 'limit', 'offset', 'metadata'), value)
      .map(([k, v]) => `${k}=${encodeURIComponent(v)}`),
    fc.string({ maxLength: 15 }).map((s) => encodeURIComponent(s)),
  );

  it('random v2 collection queries never answer 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(param, { maxLength: 5 }), async (params) => {
        const res = await acme.v2('GET', `/crm/organization?${params.join('&')}`);
        expect(res.status, `${params.join('&')} → ${res.text}`).toBeLessThan(500);
        if (res.headers['content-type']?.includes('json')) expect(isV2Envelope(res.body)).toBe(true);
      }),
      { numRuns: 150 },
    );
  });

  it('random v2 write bodies never answer 5xx and, when refused, change nothing', async () => {
    const before = await t.db.query('SELECT count(*)::int AS n FROM organization');
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('POST', 'PUT'),
        fc.oneof(
          fc.jsonValue({ maxDepth: 3 }),
          fc.record(
            {
              name: fc.oneof(fc.string({ maxLength: 20 }), fc.integer(), fc.constant(null)),
              is_active: fc.oneof(fc.boolean(), fc.string({ maxLength: 3 })),
              relation_type: fc.oneof(fc.record({ id: fc.string({ maxLength: 8 }) }), fc.string(), fc.constant(null)),
              visiting_address: fc.oneof(fc.record({ line_1: fc.string({ maxLength: 10 }) }), fc.integer(), fc.constant(null)),
            },
            { requiredKeys: [] },
          ),
        ),
        async (method, body) => {
          const path = method === 'POST' ? '/crm/organization' : `/crm/organization/${existingId}`;
          const res = await acme.v2(method, path, JSON.stringify(body), { headers: { 'content-type': 'application/json' } });
          expect(res.status, `${method} ${JSON.stringify(body)} → ${res.text}`).toBeLessThan(500);
          expect(isV2Envelope(res.body)).toBe(true);
          if (res.status === 200 && method === 'POST') {
            await acme.v2('DELETE', `/crm/organization/${(res.body as { data: { id: string } }).data.id}`);
          }
        },
      ),
      { numRuns: 150 },
    );
    const after = await t.db.query('SELECT count(*)::int AS n FROM organization');
    expect(after).toEqual(before);
  });
});
