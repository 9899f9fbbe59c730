import { Agent, request } from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, startTestService, type TestService } from './support/service.js';

/**
 * A kept-alive connection carries many requests: what the service attaches to a request
 * (here: listening for the client going away) must go with the request, not pile up on
 * the connection (11 listeners on one socket was the warning that showed it).
 */
let t: TestService;
let api: ApiClient;

beforeAll(async () => {
  t = await startTestService();
  api = await t.environment('keepalive');
});
afterAll(() => t?.stop());

function get(agent: Agent, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: t.service.port,
        path,
        agent,
        rejectUnauthorized: false,
        headers: {
          host: 'keepalive.localhost',
          'authentication-key': api.token?.key ?? '',
          'authentication-secret': api.token?.secret ?? '',
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('requests on one kept-alive connection', () => {
  it('leave nothing behind on the connection: 50 requests on one socket raise no listener-leak warning', async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(`${w.name}: ${w.message}`);
    process.on('warning', onWarning);
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const sockets = new Set<unknown>();
    agent.on('free', (socket) => sockets.add(socket));
    try {
      for (let i = 0; i < 50; i += 1) expect(await get(agent, '/api/v2/crm/organization?limit=1')).toBe(200);
      // warnings are emitted on the next tick
      await new Promise((r) => setTimeout(r, 50));
    } finally {
      process.off('warning', onWarning);
      agent.destroy();
    }
    expect(sockets.size).toBe(1);
    expect(warnings.filter((w) => w.includes('MaxListenersExceeded'))).toEqual([]);
  });
});
