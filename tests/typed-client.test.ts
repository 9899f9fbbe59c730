import { readFile } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { createBizOpsClient } from '@bo/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { typesOf } from '../packages/client/scripts/generate-types.js';
import { send } from './support/http.js';
import { type ApiClient, startTestService, type TestService } from './support/service.js';

/**
 * Issue 29, section 7: a typed client for integrators, its types generated from both OpenAPI
 * documents. The committed types must be those of the live documents; the client must work
 * against the real service through both versions.
 */

let t: TestService;
let acme: ApiClient;

beforeAll(async () => {
  t = await startTestService();
  acme = await t.environment('acme');
});
afterAll(async () => {
  await t?.stop();
});

/** a fetch over node:https to the test service, with the environment's Host and its self-signed certificate */
function serviceFetch(port: number, host: string): (request: Request) => Promise<Response> {
  return async (request) => {
    const url = new URL(request.url);
    const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
    return new Promise((resolve, reject) => {
      const headers: Record<string, string> = { host };
      request.headers.forEach((v, k) => {
        headers[k] = v;
      });
      if (body) headers['content-length'] = String(body.length);
      const req = httpsRequest(
        {
          host: '127.0.0.1',
          port,
          method: request.method,
          path: `${url.pathname}${url.search}`,
          headers,
          rejectUnauthorized: false,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const h = new Headers();
            for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') h.set(k, v);
            const status = res.statusCode ?? 500;
            resolve(new Response(status === 204 || status === 304 ? null : Buffer.concat(chunks), { status, headers: h }));
          });
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  };
}

describe('the typed client', () => {
  it('its committed types are the ones generated from the live /api/v2/docs.json and /api/v3/docs.json', async () => {
    for (const [version, title] of [
      ['v2', 'The v2 API'],
      ['v3', 'The v3 API'],
    ] as const) {
      const live = await send(t.service.port, 'GET', `/api/${version}/docs.json`, { host: 'acme.localhost' });
      expect(live.status).toBe(200);
      const generated = await typesOf(live.body as Record<string, unknown>, title);
      const committed = await readFile(
        path.join(import.meta.dirname, '..', 'packages', 'client', 'src', 'generated', `${version}.ts`),
        'utf8',
      );
      // a difference means a wire change without regenerated types: npx -y pnpm@10.34.9 --filter @bo/client generate
      expect(generated === committed, `packages/client/src/generated/${version}.ts is stale`).toBe(true);
    }
  });

  it('lists, creates and follows changes through both versions, deletions included', async () => {
    const client = createBizOpsClient({
      baseUrl: 'https://acme.localhost',
      key: acme.token?.key ?? '',
      secret: acme.token?.secret ?? '',
      fetch: serviceFetch(t.service.port, 'acme.localhost'),
    });
    let start: string | undefined;
    for await (const c of client.changes()) start = c.cursor;

    const created = await client.v2.POST('/crm/organization', { body: { name: 'Typed Client BV' } });
    expect(created.response.status).toBe(200);
    const id = String(created.data?.data?.id);
    const one = await client.v2.GET('/crm/organization/{id}', { params: { path: { id } } });
    expect(one.data?.data?.name).toBe('Typed Client BV');

    const v2Names: unknown[] = [];
    for await (const o of client.v2Items('/crm/organization')) v2Names.push(o.name);
    expect(v2Names).toContain('Typed Client BV');
    const v3Names: unknown[] = [];
    for await (const o of client.v3Items('/organization.list')) v3Names.push(o.name);
    expect(v3Names).toEqual(v2Names);

    const removed = await client.v2.DELETE('/crm/organization/{id}', { params: { path: { id } } });
    expect(removed.response.status).toBe(200);
    const changes: string[] = [];
    for await (const c of client.changes(start)) changes.push(`${c.entityType}:${c.change}:${c.entityId}`);
    expect(changes).toEqual([`organization:created:${id}`, `organization:deleted:${id}`]);
  });

  it('sends an Idempotency-Key with every write, the same on each retry, and waits out a 429 or 503 as Retry-After says', async () => {
    const seen: { method: string; headers: IncomingHttpHeaders; at: number }[] = [];
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        seen.push({ method: req.method ?? '', headers: req.headers, at: Date.now() });
        if (seen.length === 1) res.writeHead(429, { 'retry-after': '1', 'content-type': 'application/json' }).end('{}');
        else if (seen.length === 2) res.writeHead(503, { 'retry-after': '0', 'content-type': 'application/json' }).end('{}');
        else
          res
            .writeHead(200, { 'content-type': 'application/json' })
            .end('{"data":{"id":"organization:x"},"errors":null,"debug":null}');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const port = (server.address() as AddressInfo).port;
      const client = createBizOpsClient({ baseUrl: `http://127.0.0.1:${port}`, key: 'k', secret: 's' });
      const answer = await client.v2.POST('/crm/organization', { body: { name: 'Retried BV' } });
      expect(answer.response.status).toBe(200);
      expect(seen).toHaveLength(3);
      const keys = seen.map((s) => s.headers['idempotency-key']);
      expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
      expect(new Set(keys).size).toBe(1);
      expect((seen[1]?.at ?? 0) - (seen[0]?.at ?? 0)).toBeGreaterThanOrEqual(900);
      seen.length = 0;
      await client.v2.GET('/crm/organization', {});
      expect(seen.at(-1)?.headers['idempotency-key']).toBeUndefined();
    } finally {
      server.close();
    }
  });
});
