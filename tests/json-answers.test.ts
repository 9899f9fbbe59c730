import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JSON_PART_CHARACTERS, JsonText, jsonParts } from '../packages/runtime/src/json-answer.js';
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

    const input = encodeURIComponent(JSON.stringify({ limit: 30 }));
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

  it('a page of more than 128 kB (written in parts of at most 32,768 characters) arrives whole: its Content-Length is its bytes, not chunked', async () => {
    const big = await t.environment('answers-big');
    const note = `${NAME} `.repeat(120);
    for (let i = 0; i < 60; i += 1) {
      expect((await big.v2('POST', '/crm/organization', { name: `${NAME} big ${i}`, note })).status).toBe(200);
    }
    const res = await big.v2('GET', '/crm/organization?limit=100&metadata=count');
    expect(res.status).toBe(200);
    expect(Buffer.byteLength(res.text, 'utf8')).toBeGreaterThan(128 * 1024);
    const body = expectWholeJson(res) as { data: { name: string; note: string }[]; metadata: { count: number } };
    expect(body.data).toHaveLength(60);
    expect(body.data.every((o) => o.note === note)).toBe(true);
    expect(body.metadata.count).toBe(60);
  });
});

describe('jsonParts: an answer in parts is exactly JSON.stringify of it', () => {
  const item = (i: number) => ({
    id: `organization:${i}`,
    name: `${NAME} "quoted" \\ ${i}`,
    at: new Date(Date.UTC(2026, 10, 25, 8, 0, i)),
    skipped: undefined,
    fn: () => i,
    nested: { list: [1, undefined, null, 'x'], deep: { n: i / 3 } },
  });
  const bodies: [string, unknown][] = [
    [
      'a v2 envelope with a long data array',
      { data: Array.from({ length: 500 }, (_, i) => item(i)), errors: null, debug: null, metadata: { count: 500 } },
    ],
    ['a top-level array', Array.from({ length: 300 }, (_, i) => item(i))],
    [
      'an array of items JSON cannot show',
      { data: [undefined, () => 1, Symbol('s'), ...Array.from({ length: 20 }, (_, i) => i)] },
    ],
    [
      'an object with undefined and function values beside its array',
      { before: undefined, data: Array.from({ length: 40 }, (_, i) => item(i)), f: () => 1, after: 'x' },
    ],
    ['an empty-looking envelope', { data: [], errors: ['no'], debug: null }],
    ['a short array', { data: [item(1), item(2)] }],
    ['a scalar', 'text'],
    ['null', null],
    ['a Date', new Date(0)],
    ['an object with toJSON', { toJSON: () => ({ shown: true }), data: Array.from({ length: 40 }, (_, i) => i) }],
  ];
  for (const [label, body] of bodies) {
    it(label, () => {
      const parts = jsonParts(body);
      const whole = typeof parts === 'string' || parts === undefined ? parts : parts.join('');
      expect(whole).toBe(JSON.stringify(body));
    });
  }

  it('items already in JSON (made in turns) are written as their text: the answer is JSON.stringify of the items they hold', () => {
    for (const length of [1, 3, 40, 500]) {
      const items = Array.from({ length }, (_, i) => item(i));
      const texts = items.map((x) => new JsonText(JSON.stringify(x)));
      const parts = jsonParts({ data: texts, metadata: { count: length }, errors: null, debug: null });
      const whole = typeof parts === 'string' || parts === undefined ? parts : parts.join('');
      expect(whole).toBe(JSON.stringify({ data: items, metadata: { count: length }, errors: null, debug: null }));
      // a body that is the array itself (a v3 answer is an object, a top-level array is allowed too)
      const top = jsonParts(texts);
      expect(typeof top === 'string' || top === undefined ? top : top.join('')).toBe(JSON.stringify(items));
    }
    // anywhere else, JSON.stringify shows the value it holds
    expect(JSON.stringify({ one: new JsonText('{"a":[1,"x"]}') })).toBe('{"one":{"a":[1,"x"]}}');
  });

  it('a long envelope comes in parts, none over the part size but by one item; undefined stays undefined', () => {
    const parts = jsonParts({ data: Array.from({ length: 500 }, (_, i) => item(i)), errors: null });
    expect(Array.isArray(parts)).toBe(true);
    const longestItem = Math.max(...Array.from({ length: 500 }, (_, i) => JSON.stringify(item(i)).length));
    for (const part of parts as string[]) expect(part.length).toBeLessThanOrEqual(JSON_PART_CHARACTERS + longestItem + 1);
    expect((parts as string[]).length).toBeGreaterThan(2);
    expect(jsonParts(undefined)).toBeUndefined();
  });
});
