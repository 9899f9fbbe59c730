import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, startTestService, type TestService } from './support/service.js';

let t: TestService;
let acme: ApiClient;

beforeAll(async () => {
  t = await startTestService({ rateLimitPerMinute: 5 });
  acme = await t.environment('acme');
});
afterAll(() => t?.stop());

describe('rate limit (contract: exceeding the rate limit answers 429)', () => {
  it('v2 answers 429 in the envelope with Retry-After once a token passes its limit per minute', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 5; i += 1) statuses.push((await acme.v2('GET', '/crm/organization')).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200]);
    const over = await acme.v2('GET', '/crm/organization');
    expect(over.status).toBe(429);
    expect(over.body).toEqual({ data: null, errors: [expect.stringContaining('rate limit')], debug: null });
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    expect(over.headers['x-ratelimit-remaining']).toBe('0');
  });

  it('v3 answers 429 as problem details for the same token, since both versions share the counter', async () => {
    const res = await acme.v3('GET', '/organization.list');
    expect(res.status).toBe(429);
    expect(res.body).toMatchObject({ type: '/errors/429', status: 429 });
  });

  it('the limit is per token: another token of the same user is not limited', async () => {
    const token = await t.system.admin.token.create({ environment: 'acme', user: 'user1@acme.test' });
    const res = await acme.withToken(token).v2('GET', '/crm/organization');
    expect(res.status).toBe(200);
    expect(res.headers['x-ratelimit-limit']).toBe('5');
  });

  it('counters live in PostgreSQL, so every API process shares them', async () => {
    const rows = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM rate_limit.counter');
    expect(rows[0]?.n).toBeGreaterThanOrEqual(2);
  });
});
