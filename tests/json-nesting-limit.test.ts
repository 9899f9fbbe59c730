import { DEFAULT_MAX_JSON_DEPTH, jsonTextDeeperThan } from '@bo/http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HttpResponse, send } from './support/http.js';
import { type ApiClient, startTestService, type TestService, type Token } from './support/service.js';

/**
 * Work per request is bounded before it starts (issue 28 §1): one nesting limit for JSON bodies
 * on every door, checked on the bytes before parsing, answered 400 in the door's shape, nothing
 * stored; every recursive walk over input then meets at most that depth.
 */

/** `{"name": …, "x": [[[…]]]}` whose deepest value sits `depth` levels down (the object is level 1) */
function nested(depth: number, name = 'deep'): string {
  const arrays = depth - 1;
  return `{"name":${JSON.stringify(name)},"x":${'['.repeat(arrays)}1${']'.repeat(arrays)}}`;
}

type Door = 'v2' | 'v3' | 'trpc';

function headers(door: Door, token: Token): Record<string, string> {
  const auth: Record<string, string> =
    door === 'v2'
      ? { 'authentication-key': token.key, 'authentication-secret': token.secret }
      : { authorization: `Bearer ${token.key}:${token.secret}` };
  return { ...auth, 'content-type': 'application/json' };
}

function expectRefused(door: Door, res: HttpResponse) {
  expect(res.status, res.text).toBe(400);
  expect(res.text).toMatch(/deeper than 32 levels/);
  if (door === 'v2') expect(res.body).toMatchObject({ data: null, debug: null, errors: [expect.any(String)] });
  if (door === 'v3') expect(res.body).toMatchObject({ type: '/errors/400', status: 400 });
  if (door === 'trpc') expect(res.body).toMatchObject({ error: { data: { httpStatus: 400 } } });
}

describe('the nesting scan', () => {
  it('counts arrays and objects, not brackets inside strings or escaped quotes', () => {
    expect(jsonTextDeeperThan('1', 0)).toBe(false);
    expect(jsonTextDeeperThan('[]', 0)).toBe(true);
    expect(jsonTextDeeperThan('[[1]]', 2)).toBe(false);
    expect(jsonTextDeeperThan('[[1]]', 1)).toBe(true);
    expect(jsonTextDeeperThan('{"a":"[[[[[[","b":{}}', 2)).toBe(false);
    expect(jsonTextDeeperThan('{"a":"\\"[[[[","b":[]}', 2)).toBe(false);
    expect(jsonTextDeeperThan('{"a":"\\\\","b":[[[]]]}', 3)).toBe(true);
    expect(jsonTextDeeperThan(Buffer.from(nested(DEFAULT_MAX_JSON_DEPTH)), DEFAULT_MAX_JSON_DEPTH)).toBe(false);
    expect(jsonTextDeeperThan(Buffer.from(nested(DEFAULT_MAX_JSON_DEPTH + 1)), DEFAULT_MAX_JSON_DEPTH)).toBe(true);
  });
});

describe('one nesting limit on every door', () => {
  let t: TestService;
  let acme: ApiClient;
  let token: Token;
  const organizations = async () => Number((await t.db.query<{ n: string }>('SELECT count(*) AS n FROM organization'))[0]?.n);

  beforeAll(async () => {
    t = await startTestService();
    acme = await t.environment('deep');
    token = acme.token as Token;
  });
  afterAll(() => t?.stop());

  const post = (door: Door, path: string, body: string) =>
    send(t.service.port, 'POST', path, { host: acme.host, headers: headers(door, token), body });

  for (const depth of [DEFAULT_MAX_JSON_DEPTH + 1, 10_000]) {
    it(`v2 POST and PUT crm/organization, depth ${depth}: 400 in the envelope, nothing stored`, async () => {
      const before = await organizations();
      expectRefused('v2', await post('v2', '/api/v2/crm/organization', nested(depth)));
      const created = await acme.v2('POST', '/crm/organization', { name: 'Shallow BV' });
      const id = (created.body as { data: { id: string } }).data.id;
      const put = await send(t.service.port, 'PUT', `/api/v2/crm/organization/${id}`, {
        host: acme.host,
        headers: headers('v2', token),
        body: nested(depth, 'Renamed'),
      });
      expectRefused('v2', put);
      expect(await organizations()).toBe(before + 1);
      const read = await acme.v2('GET', `/crm/organization/${id}`);
      expect((read.body as { data: { name: string } }).data.name).toBe('Shallow BV');
    });

    it(`v2 hours, invoices, sales and persons, depth ${depth}: 400 in the envelope`, async () => {
      for (const path of ['/api/v2/hours/hours', '/api/v2/invoices/invoice', '/api/v2/sales/sales', '/api/v2/crm/person']) {
        expectRefused('v2', await post('v2', path, nested(depth)));
      }
    });

    it(`v2 chunked upload PUT (a body read by its own parser), depth ${depth}: 400 in the envelope`, async () => {
      const started = await acme.v2('POST', '/upload/chunked', { file_name: 'f.bin', file_size: 10 });
      const id = (started.body as { data: { chunked_upload_id: string } }).data.chunked_upload_id;
      const res = await send(t.service.port, 'PUT', `/api/v2/upload/chunked/${encodeURIComponent(id)}`, {
        host: acme.host,
        headers: headers('v2', token),
        body: `{"chunk":"aGVsbG8=","x":${'['.repeat(depth)}${']'.repeat(depth)}}`,
      });
      expectRefused('v2', res);
    });

    it(`v3 command, depth ${depth}: 400 problem details, nothing stored`, async () => {
      const before = await organizations();
      expectRefused('v3', await post('v3', '/api/v3/webhook.create', nested(depth)));
      expect(await organizations()).toBe(before);
    });

    it(`/trpc mutation body and query input, depth ${depth}: 400 in tRPC's shape, nothing stored`, async () => {
      const before = await organizations();
      const values = `${'['.repeat(depth - 4)}"v"${']'.repeat(depth - 4)}`;
      const body = `{"data":{"name":"Deep BV","customFields":[{"name":"x","value":${values}}]}}`;
      expectRefused('trpc', await post('trpc', '/trpc/crm.organization.create', body));
      expect(await organizations()).toBe(before);
      if (depth < 5_000) {
        // a query's input travels in the URL, where the header size bounds it first
        const input = encodeURIComponent(`{"query":{"limit":1},"x":${'['.repeat(depth)}${']'.repeat(depth)}}`);
        const res = await send(t.service.port, 'GET', `/trpc/crm.organization.list?input=${input}`, {
          host: acme.host,
          headers: headers('trpc', token),
        });
        expectRefused('trpc', res);
      }
    });
  }

  it('at the limit a body is read as before (v2 ignores the extra member; /trpc creates)', async () => {
    const res = await post('v2', '/api/v2/crm/organization', nested(DEFAULT_MAX_JSON_DEPTH, 'At the limit BV'));
    expect(res.status, res.text).toBe(200);
    const mutation = await post('trpc', '/trpc/crm.organization.create', JSON.stringify({ data: { name: 'Through tRPC BV' } }));
    expect(mutation.status, mutation.text).toBe(200);
  });
});
