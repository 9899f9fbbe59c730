import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send } from './support/http.js';
import { type ApiClient, startTestService, type TestService } from './support/service.js';

/**
 * Every door's JSON answers are written by one `res.json` (packages/runtime/src/json-answer.ts),
 * which hands node:http the string itself instead of a copy of it as a Buffer (issue 15). What a
 * client sees must not change: the byte count, the type with its charset, no body for HEAD.
 */
let t: TestService;
let api: ApiClient;
// characters of two, three and four bytes in UTF-8: a length counted in characters would be short
const NAME = 'Zoë Ærø 日本語 🎉 Ⅻ';

beforeAll(async () => {
  t = await startTestService();
  api = await t.environment('answers');
  const created = await api.v2('POST', '/crm/organization', { name: NAME });
  expect(created.status).toBe(200);
});
afterAll(async () => {
  await t?.stop();
});

function expectWholeJson(res: { status: number; headers: Record<string, unknown>; text: string }, type = 'application/json') {
  expect(res.headers['content-type']).toBe(`${type}; charset=utf-8`);
  expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.text, 'utf8'));
  expect(res.headers['transfer-encoding']).toBeUndefined();
  return JSON.parse(res.text) as unknown;
}

describe('JSON answers of every door', () => {
  it('a v2 page over 1,000 characters with multi-byte names: its Content-Length is its bytes, its type application/json; charset=utf-8', async () => {
    for (let i = 0; i < 20; i += 1) await api.v2('POST', '/crm/organization', { name: `${NAME} ${i}` });
    const res = await api.v2('GET', '/crm/organization?limit=100');
    expect(res.status).toBe(200);
    expect(res.text.length).toBeGreaterThan(1000);
    const body = expectWholeJson(res) as { data: { name: string }[]; errors: null; debug: null };
    expect(body.data.map((o) => o.name)).toContain(NAME);
    expect(body).toMatchObject({ errors: null, debug: null });
  });

  it('HEAD of a v2 list answers its GET headers with no body', async () => {
    const get = await api.v2('GET', '/crm/organization?limit=5');
    const head = await api.v2('HEAD', '/crm/organization?limit=5');
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    expect(head.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(head.headers['content-length']).toBe(String(Buffer.byteLength(get.text, 'utf8')));
  });

  it('a v2 error, a v3 page and the health check are whole JSON the same way; a /trpc answer is whole JSON of its own writing', async () => {
    const v2Error = await api.v2('GET', '/crm/organization/organization:nothing');
    expect(v2Error.status).toBe(404);
    expect(expectWholeJson(v2Error)).toMatchObject({ data: null, errors: [expect.any(String)] });

    const v3 = await api.v3('GET', '/organization.list?itemsPerPage=30');
    expect(v3.status).toBe(200);
    expect(JSON.stringify(expectWholeJson(v3))).toContain(NAME);

    const input = encodeURIComponent(JSON.stringify({ query: { limit: 30 }, view: 'v3' }));
    const trpc = await send(t.service.port, 'GET', `/trpc/crm.organization.list?input=${input}`, {
      host: 'answers.localhost',
      headers: { authorization: `Bearer ${api.token?.key}:${api.token?.secret}` },
    });
    expect(trpc.status).toBe(200);
    // tRPC's adapter writes its own answers (not through res.json): its type, and no charset
    expect(trpc.headers['content-type']).toBe('application/json');
    if (trpc.headers['content-length'] !== undefined) {
      expect(Number(trpc.headers['content-length'])).toBe(Buffer.byteLength(trpc.text, 'utf8'));
    }
    expect(trpc.text).toContain(NAME);

    const health = await send(t.service.port, 'GET', '/healthz', { host: 'answers.localhost' });
    expect(health.status).toBe(200);
    expect(expectWholeJson(health)).toMatchObject({ status: 'ok' });
  });
});
