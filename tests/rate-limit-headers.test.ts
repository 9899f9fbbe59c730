import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send } from './support/http.js';
import { type ApiClient, startTestService, type TestService } from './support/service.js';

/**
 * Issue 29, section 5: beside X-RateLimit-*, every door sends the IETF fields
 * (draft-ietf-httpapi-ratelimit-headers) from the one guard, and every 429 says when to retry.
 */

let t: TestService;
let acme: ApiClient;

beforeAll(async () => {
  t = await startTestService({ rateLimitPerMinute: 6 });
  acme = await t.environment('acme');
});
afterAll(() => t?.stop());

const policy = (h: Record<string, unknown>) => String(h['ratelimit-policy']);
const state = (h: Record<string, unknown>) => {
  const m = /^"default";r=(\d+);t=(\d+)$/.exec(String(h.ratelimit));
  return m ? { remaining: Number(m[1]), reset: Number(m[2]) } : null;
};

describe('rate-limit headers clients understand', () => {
  it('v2, v3 and /trpc send RateLimit-Policy and RateLimit beside X-RateLimit-*, from one budget', async () => {
    const v2 = await acme.v2('GET', '/crm/organization');
    const v3 = await acme.v3('GET', '/organization.list');
    const trpc = await send(t.service.port, 'GET', '/trpc/crm.organization.list?input=%7B%7D', {
      host: 'acme.localhost',
      headers: { authorization: `Bearer ${acme.token?.key}:${acme.token?.secret}` },
    });
    for (const res of [v2, v3, trpc]) {
      expect(res.status, res.text).toBe(200);
      expect(policy(res.headers)).toBe('"default";q=6;w=60');
      const s = state(res.headers);
      expect(s, String(res.headers.ratelimit)).not.toBeNull();
      expect(s?.remaining).toBe(Number(res.headers['x-ratelimit-remaining']));
      expect(s?.reset).toBeGreaterThanOrEqual(0);
      expect(s?.reset).toBeLessThanOrEqual(60);
    }
    // one budget across the doors: each request took one
    expect([v2, v3, trpc].map((r) => state(r.headers)?.remaining)).toEqual([5, 4, 3]);
  });

  it('every 429 carries Retry-After and RateLimit with nothing remaining, on every door', async () => {
    for (let i = 0; i < 3; i++) await acme.v2('GET', '/crm/organization');
    const v2 = await acme.v2('GET', '/crm/organization');
    const v3 = await acme.v3('GET', '/organization.list');
    const trpc = await send(t.service.port, 'GET', '/trpc/crm.organization.list?input=%7B%7D', {
      host: 'acme.localhost',
      headers: { authorization: `Bearer ${acme.token?.key}:${acme.token?.secret}` },
    });
    for (const res of [v2, v3, trpc]) {
      expect(res.status).toBe(429);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      expect(state(res.headers)?.remaining).toBe(0);
      expect(policy(res.headers)).toBe('"default";q=6;w=60');
    }
  });
});

describe('the rate-limit fields in both OpenAPI documents', () => {
  type Doc = { paths: Record<string, Record<string, { responses: Record<string, { headers?: Record<string, unknown> }> }>> };
  const operations = (doc: Doc) => Object.values(doc.paths).flatMap((item) => Object.values(item));

  it('every success answer declares RateLimit-Policy and RateLimit, and every 429 declares Retry-After, in v2 and in v3', async () => {
    const anonymous = acme.withToken(null);
    const v2 = (await anonymous.v2('GET', '/docs.json')).body as Doc;
    const v3 = (await anonymous.v3('GET', '/docs.json')).body as Doc;
    for (const doc of [v2, v3]) {
      const ops = operations(doc);
      expect(ops.length).toBeGreaterThan(50);
      for (const op of ops) {
        const success = Object.entries(op.responses).filter(([status]) => status.startsWith('2'));
        expect(success.length).toBeGreaterThan(0);
        for (const [, response] of success) {
          expect(Object.keys(response.headers ?? {})).toEqual(expect.arrayContaining(['RateLimit-Policy', 'RateLimit']));
        }
        const tooMany = op.responses['429'];
        if (tooMany) expect(Object.keys(tooMany.headers ?? {})).toContain('Retry-After');
      }
      expect(ops.filter((op) => op.responses['429']).length).toBeGreaterThan(ops.length / 2);
    }
  });
});
