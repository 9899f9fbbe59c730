import { createServer, get, type IncomingMessage } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { createV2Router, v2Resources } from '@bo/api-v2';
import type { ClaimedRequest, Guard } from '@bo/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpResponse } from './support/http.js';
import { ApiClient, startTestService, type TestService } from './support/service.js';

/**
 * v2's GET requests are answered from its own route table, past express's router
 * (`apps/api-v2/src/app.ts`, `claim`); every other request, and any path the table does not read
 * for sure, goes through express's router as before. The rule: the two answer alike. One service
 * runs with the table, a second one on the same database without it (`V2_ROUTE_TABLE=false`), and
 * every request below is sent to both.
 */

let withTable: TestService;
let withoutTable: TestService;
let acme: ApiClient;
let organizationId: string;

/** the same client on the other service */
const onOther = (client: ApiClient) => new ApiClient(withoutTable.service.port, client.host, client.token);

/** what must be equal: the status, the body, and the headers an integration reads */
function answer(r: HttpResponse) {
  const h = r.headers;
  return {
    status: r.status,
    text: r.text,
    type: h['content-type'],
    etag: h.etag,
    allow: h.allow,
    retryAfter: h['retry-after'],
    disposition: h['content-disposition'],
    hasRequestId: typeof h['x-request-id'] === 'string',
  };
}

beforeAll(async () => {
  withTable = await startTestService();
  withoutTable = await startTestService({ db: withTable.db, dataDir: withTable.dataDir, routeTable: false });
  acme = await withTable.environment('acme');
  const created = await acme.v2('POST', '/crm/organization', {
    name: 'Route Table BV',
    visiting_address: { line_1: 'Keizersgracht 1', city: 'Amsterdam' },
  });
  expect(created.status, created.text).toBe(200);
  organizationId = (created.body as { data: { id: string } }).data.id;
}, 120_000);

afterAll(async () => {
  await withoutTable?.stopService();
  await withTable?.stop();
});

describe('v2 route table', () => {
  it('every kind of GET path is answered from the route table exactly as express’s router answers it: status, body and headers', async () => {
    const id = encodeURIComponent(organizationId);
    const paths = [
      // a collection with the query language, a record, a record's ETag answer
      '/crm/organization?limit=2&select=name,visiting_address&metadata=count',
      '/crm/organization?q[name]=Route*&sort=-name',
      `/crm/organization/${id}`,
      `/crm/organization/${id}?select=name`,
      // express's routing is case-insensitive and ignores one trailing slash
      `/CRM/Organization/${id}`,
      `/crm/organization/${id}/`,
      '/crm/organization/',
      // ids that are not there, encoded, and one that does not decode (left to express: 400/404 as ever)
      '/crm/organization/00000000-0000-0000-0000-000000000000',
      '/crm/organization/a%20b%2Fc',
      '/crm/organization/%E0%A4%A',
      // a row action and a row operation by GET, a GET on a write-only action
      `/projects/project/${id}/planningBudget`,
      `/sales/converttoproject/${id}`,
      `/sales/sales/${id}/duplicate`,
      // routes of the extension (uploads, documents, storage)
      '/upload/chunked/00000000-0000-0000-0000-000000000000',
      '/documents/download/nope',
      '/storage/logo',
      // what no route answers: an unknown module, an unknown resource, empty segments, the reference
      '/nosuch/thing',
      '/crm/nosuch',
      '/crm//organization',
      `/crm/organization/${id}/too/deep`,
      '/docs.json',
    ];
    for (const path of paths) {
      const [a, b] = [await acme.v2('GET', path), await onOther(acme).v2('GET', path)];
      expect(answer(a), path).toEqual(answer(b));
      expect(a.status, path).toBeLessThan(500);
    }
    // a record's ETag sent back: 304 from both
    const tag = (await acme.v2('GET', `/crm/organization/${id}`)).headers.etag as string;
    const extra = { headers: { 'if-none-match': tag } };
    const [a, b] = [
      await acme.v2('GET', `/crm/organization/${id}`, undefined, extra),
      await onOther(acme).v2('GET', `/crm/organization/${id}`, undefined, extra),
    ];
    expect(a.status).toBe(304);
    expect(answer(a)).toEqual(answer(b));
  });

  it('the guard answers a claimed GET as it answers through express: no credentials 401, a right not held 403, in the v2 envelope', async () => {
    const id = encodeURIComponent(organizationId);
    const anonymous = acme.withToken(null);
    const projectsOnly = await withTable.user('acme', 'route-table-projects@acme.test', { projects: 'read' });
    for (const [client, status] of [
      [anonymous, 401],
      [projectsOnly, 403],
    ] as const) {
      for (const path of ['/crm/organization', `/crm/organization/${id}`]) {
        const [a, b] = [await client.v2('GET', path), await onOther(client).v2('GET', path)];
        expect(a.status, path).toBe(status);
        expect(answer(a), path).toEqual(answer(b));
        expect((a.body as { errors: unknown[] }).errors.length, path).toBeGreaterThan(0);
      }
    }
  });
});

describe('v2 route table: what it claims', () => {
  // the table is read at claim time; the layers run only for a claimed request's answer
  const pass = () => (_req: unknown, _res: unknown, next: () => void) => next();
  const { claim } = createV2Router({
    guard: { transportOnly: pass, door: pass } as unknown as Guard,
    log: { error: () => {} } as never,
  });
  const claims = (method: string, url: string) => claim({ method, url } as IncomingMessage) !== undefined;

  it('claims the GET of every declared resource’s collection and record, in any case and with one trailing slash', () => {
    expect(v2Resources.length).toBeGreaterThan(50);
    for (const r of v2Resources) {
      expect(claims('GET', `/api/v2/${r.path}?limit=5`), r.path).toBe(true);
      expect(claims('GET', `/api/v2/${r.path}/some-id`), r.path).toBe(true);
      expect(claims('GET', `/api/v2/${r.path.toUpperCase()}/some-id/`), r.path).toBe(true);
    }
  });

  it('leaves to express’s router what it does not read for sure: other methods, the reference, unknown paths, empty segments, undecodable or non-ASCII paths, another spelling of the base', () => {
    for (const [method, url] of [
      ['HEAD', '/api/v2/crm/organization'],
      ['POST', '/api/v2/crm/organization'],
      ['PUT', '/api/v2/crm/organization/x'],
      ['DELETE', '/api/v2/crm/organization/x'],
      ['GET', '/api/v2/docs.json'],
      ['GET', '/api/v2/nosuch/thing'],
      ['GET', '/api/v2/crm/nosuch'],
      ['GET', '/api/v2/crm//organization'],
      ['GET', '/api/v2/crm/organization/x//'],
      ['GET', '/api/v2/crm/organization/%E0%A4%A'],
      ['GET', '/api/v2/crm/organizatio\u212a/x'],
      ['GET', '/API/V2/crm/organization'],
      ['GET', '/api/v2'],
      ['GET', 'https://acme.localhost/api/v2/crm/organization'],
    ] as const) {
      expect(claims(method, url), `${method} ${url}`).toBe(false);
    }
  });
});

describe('v2 route table: an error once the answer has begun', () => {
  it('a route failing after its answer began (thrown or rejected) ends that connection, as express’s final handler does, and the process serves on', async () => {
    type Res = Parameters<ClaimedRequest>[1];
    const pass = () => (_req: unknown, _res: unknown, next: () => void) => next();
    const admitted = () => (_req: unknown, res: { locals: Record<string, unknown> }, next: () => void) => {
      res.locals.admission = { principal: { kind: 'system' }, context: {} };
      next();
    };
    const begun = (res: Res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('partial');
    };
    const { claim } = createV2Router({
      guard: { transportOnly: pass, door: admitted } as unknown as Guard,
      log: { error: () => {} } as never,
      extend: (routes) => {
        routes.get('/zz/thrown', (_req, res) => {
          begun(res);
          throw new Error('after the answer began');
        });
        routes.get('/zz/fine', (_req, res) => {
          res.writeHead(200, { 'content-type': 'text/plain' }).end('whole');
        });
        routes.get('/zz/rejected', async (_req, res) => {
          begun(res);
          await new Promise((resolve) => setImmediate(resolve));
          throw new Error('after the answer began');
        });
      },
    });
    // the claimed run as createHttpApp starts it: express's request and response methods (express is
    // the runtime's dependency, not the tests'). Rendering the error then fails, the answer having begun;
    // before, that failure escaped: an uncaught exception, an unhandled rejection
    const express = createRequire(new URL('../packages/runtime/package.json', import.meta.url))('express') as () => {
      request: object;
      response: object;
    };
    const app = express();
    const server = createServer((req, res) => {
      const run = claim(req);
      if (!run) {
        res.writeHead(599).end();
        return;
      }
      Object.setPrototypeOf(req, app.request);
      Object.setPrototypeOf(res, app.response);
      (res as unknown as Res).locals = {};
      (req as Parameters<ClaimedRequest>[0]).originalUrl = req.url ?? '';
      run(req as Parameters<ClaimedRequest>[0], res as unknown as Res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    const fetchOnce = (path: string) =>
      new Promise<{ status: number; body: string; complete: boolean }>((resolve) => {
        const req = get({ port, host: '127.0.0.1', path, agent: false }, (res) => {
          let body = '';
          res.on('data', (c: Buffer) => {
            body += c.toString();
          });
          res.on('close', () => resolve({ status: res.statusCode ?? 0, body, complete: res.complete }));
        });
        req.on('error', () => resolve({ status: 0, body: '', complete: false }));
      });
    try {
      for (const path of ['/api/v2/zz/thrown', '/api/v2/zz/rejected', '/api/v2/zz/thrown']) {
        // the connection ends at once: the client sees a reset, or the part sent before it
        const cut = await fetchOnce(path);
        expect(cut.complete, path).toBe(false);
        expect(['', 'partial'], path).toContain(cut.body);
        expect(await fetchOnce('/api/v2/zz/fine')).toEqual({ status: 200, body: 'whole', complete: true });
      }
    } finally {
      server.close();
    }
  });
});
