import { request } from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send } from './support/http.js';
import { type ApiClient, startTestService, type TestService } from './support/service.js';

/**
 * The fair share of the process (REQUESTS_PER_ENVIRONMENT): a request that waited for its
 * environment's place longer than the statement time is answered 503 with Retry-After in its
 * door's shape (v2 envelope, v3 problem, tRPC error); another environment is served meanwhile;
 * the place comes back when the request holding it ends.
 */
const WAIT_MS = 300;
let t: TestService;
let busy: ApiClient;
let other: ApiClient;

beforeAll(async () => {
  t = await startTestService({
    limits: { requestsPerEnvironment: 1, requestsPerEnvironmentAlone: 1, statementTimeoutMs: WAIT_MS },
  });
  busy = await t.environment('busy');
  other = await t.environment('other');
});
afterAll(() => t?.stop());

/** A v2 create whose body never comes: it holds its environment's one place while the body is awaited. */
function holdPlace(): { release(): void } {
  const req = request({
    host: '127.0.0.1',
    port: t.service.port,
    method: 'POST',
    path: '/api/v2/crm/organization',
    rejectUnauthorized: false,
    agent: false,
    headers: {
      host: busy.host,
      'content-type': 'application/json',
      'content-length': '100',
      'authentication-key': busy.token?.key ?? '',
      'authentication-secret': busy.token?.secret ?? '',
    },
  });
  req.on('error', () => {});
  req.write('{');
  return { release: () => req.destroy() };
}

const bearer = () => ({ authorization: `Bearer ${busy.token?.key}:${busy.token?.secret}` });

describe("the fair share of the process: an environment's requests beyond its share wait, then are refused in each door's shape", () => {
  it('v2, v3 and /trpc answer 503 with Retry-After after the wait; another environment is served at once; the place comes back', async () => {
    const held = holdPlace();
    try {
      await new Promise((r) => setTimeout(r, 100));
      const started = performance.now();
      const [v2, v3, trpc, elsewhere] = await Promise.all([
        busy.v2('GET', '/crm/organization?limit=1'),
        send(t.service.port, 'GET', '/api/v3/organization.list', { host: busy.host, headers: bearer() }),
        send(t.service.port, 'GET', `/trpc/crm.organization.list?input=${encodeURIComponent(JSON.stringify({ limit: 1 }))}`, {
          host: busy.host,
          headers: bearer(),
        }),
        other.v2('GET', '/crm/organization?limit=1'),
      ]);
      expect(elsewhere.status).toBe(200);
      expect(performance.now() - started).toBeGreaterThanOrEqual(WAIT_MS - 20);
      for (const res of [v2, v3, trpc]) {
        expect(res.status, res.text).toBe(503);
        expect(res.headers['retry-after']).toBe('1');
        expect(res.text).toMatch(/too many requests of this environment/);
      }
      expect(v2.body).toEqual({ data: null, debug: null, errors: [expect.stringMatching(/too many requests/)] });
      expect(v3.headers['content-type']).toContain('application/problem+json');
      expect(v3.body).toMatchObject({ status: 503 });
      expect(trpc.body).toMatchObject({ error: { data: { httpStatus: 503 } } });
    } finally {
      held.release();
    }
    // the client went away: its place is free again
    await new Promise((r) => setTimeout(r, 50));
    expect((await busy.v2('GET', '/crm/organization?limit=1')).status).toBe(200);
  });
});
