import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { runInRequestScope, setReplicaLag } from '@bo/db';
import { ALL_RIGHTS } from '@bo/domain';
import { serviceLogger } from '@bo/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send } from './support/http.js';
import { Receiver, waitFor } from './support/receiver.js';
import { type ApiClient, startTestService, type TestService } from './support/service.js';

/**
 * Issue 30, section 3: an operator can see what the service is doing. Prometheus metrics on their
 * own port (METRICS_PORT), counted by door, route template and status; request ids in every answer,
 * in the log lines, the spans and the webhook deliveries; spans over OTLP/HTTP when a collector is named.
 */

/** A collector on 127.0.0.1 that records the OTLP/HTTP JSON bodies posted to /v1/traces. */
class SpanCollector {
  readonly spans: OtlpSpan[] = [];
  private server: Server | null = null;
  port = 0;

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        if (req.url === '/v1/traces') {
          const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpBody;
          for (const rs of body.resourceSpans ?? []) for (const ss of rs.scopeSpans ?? []) this.spans.push(...(ss.spans ?? []));
        }
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  async stop(): Promise<void> {
    const s = this.server;
    if (!s) return;
    await new Promise<void>((resolve) => {
      s.close(() => resolve());
      s.closeAllConnections();
    });
  }
}

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes?: { key: string; value: { stringValue?: string; intValue?: number | string } }[];
}
interface OtlpBody {
  resourceSpans?: { scopeSpans?: { spans?: OtlpSpan[] }[] }[];
}

const attribute = (s: OtlpSpan, key: string) => {
  const v = s.attributes?.find((a) => a.key === key)?.value;
  return v?.stringValue ?? (v?.intValue === undefined ? undefined : Number(v.intValue));
};

/** GET /metrics over plain HTTP from the metrics listener */
function scrape(port: number, path = '/metrics'): Promise<{ status: number; type: string; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method: 'GET', agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          type: String(res.headers['content-type']),
          text: Buffer.concat(chunks).toString(),
        }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

/** one sample of the exposition text: its labels and value */
interface Sample {
  labels: Record<string, string>;
  value: number;
}

function samples(text: string, name: string): Sample[] {
  const out: Sample[] = [];
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const m = /^[^{\s]+(?:\{(.*)\})?\s+(\S+)$/.exec(line);
    if (!m) continue;
    const labels: Record<string, string> = {};
    for (const l of (m[1] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[l[1] as string] = l[2] as string;
    out.push({ labels, value: Number(m[2]) });
  }
  return out;
}

/** the value of the sample with exactly these labels (0 when there is none yet) */
function value(text: string, name: string, labels: Record<string, string>): number {
  const want = Object.entries(labels);
  const found = samples(text, name).find(
    (s) => Object.keys(s.labels).length === want.length && want.every(([k, v]) => s.labels[k] === v),
  );
  return found?.value ?? 0;
}

let t: TestService;
let acme: ApiClient;
/** a second token of the environment, for the rate limit (its budget is its own) */
let limited: ApiClient;
let receiver: Receiver;
let collector: SpanCollector;
let metricsPort: number;
/** the budget of each token: the mix below spends about 25 of acme's */
const PER_MINUTE = 40;

beforeAll(async () => {
  collector = await new SpanCollector().start();
  receiver = await new Receiver().start();
  t = await startTestService({
    metricsPort: true,
    runWorker: true,
    rateLimitPerMinute: PER_MINUTE,
    otlpEndpoint: `http://127.0.0.1:${collector.port}`,
    webhooks: { retryBaseMs: 50, retryMaxDelayMs: 200, timeoutMs: 2_000, pollIntervalMs: 25 },
  });
  metricsPort = t.service.metricsPort as number;
  acme = await t.environment('acme');
  limited = await t.user('acme', 'limited@acme.test', ALL_RIGHTS);
  const sub = await acme.v3('POST', '/webhook.create', { url: receiver.url, events: ['organization.created'] });
  expect(sub.status, sub.text).toBe(201);
});
afterAll(async () => {
  await t?.stop();
  await receiver?.stop();
  await collector?.stop();
});

const trpcList = `/trpc/crm.organization.list?input=${encodeURIComponent(JSON.stringify({ limit: 1 }))}`;

describe('the metrics listener', () => {
  it('metrics are served on their own port, and /metrics is not on the public listener', async () => {
    expect(metricsPort).toBeGreaterThan(0);
    expect(metricsPort).not.toBe(t.service.port);
    const scraped = await scrape(metricsPort);
    expect(scraped.status).toBe(200);
    expect(scraped.type).toContain('text/plain');
    expect(scraped.text).toContain('# TYPE bo_http_request_duration_seconds histogram');
    // the public listener: the service's own 404
    const direct = await send(t.service.port, 'GET', '/metrics', { host: 'acme.localhost' });
    expect(direct.status).toBe(404);
    expect(direct.headers['content-type']).toContain('text/plain');
    expect(direct.text).toBe('Not found');
    expect(direct.text).not.toContain('bo_http');
    // the metrics listener serves nothing else
    expect((await scrape(metricsPort, '/api/v2/crm/organization')).status).toBe(404);
  });

  it('a scrape after a known mix of requests counts each by door, route template and status', async () => {
    const before = (await scrape(metricsPort)).text;

    for (let i = 0; i < 3; i += 1) expect((await acme.v2('GET', '/crm/organization?limit=2')).status).toBe(200);
    const created = await acme.v2('POST', '/crm/organization', { name: 'Counted BV' });
    expect(created.status, created.text).toBe(200);
    const id = (created.body as { data: { id: string } }).data.id;
    expect((await acme.v2('GET', `/crm/organization/${encodeURIComponent(id)}`)).status).toBe(200);
    for (let i = 0; i < 2; i += 1) expect((await acme.v3('GET', '/organization.list')).status).toBe(200);
    expect((await acme.v3('GET', `/organization.get/${encodeURIComponent(id)}`)).status).toBe(200);
    const unauthenticated = await acme.withToken({ key: 'nope', secret: 'wrong' }).v2('GET', '/crm/organization');
    expect(unauthenticated.status).toBe(401);
    const trpc = await send(t.service.port, 'GET', trpcList, {
      host: 'acme.localhost',
      headers: { authorization: `Bearer ${acme.token?.key}:${acme.token?.secret}` },
    });
    expect(trpc.status, trpc.text).toBe(200);
    // a name no endpoint has is no label of its own
    expect((await acme.v3('GET', '/no.such-endpoint-4711')).status).toBe(404);
    // the other token spends its budget: the last request is refused
    for (let i = 0; i < PER_MINUTE; i += 1) expect((await limited.v2('GET', '/crm/person?limit=1')).status).toBe(200);
    expect((await limited.v2('GET', '/crm/person?limit=1')).status).toBe(429);
    // an upload of N bytes
    const N = 70_001;
    const start = await acme.v2('POST', '/upload/chunked', { file_name: 'counted.bin', file_size: N });
    expect(start.status, start.text).toBe(200);
    const uploadId = (start.body as { data: { chunked_upload_id: string } }).data.chunked_upload_id;
    const put = await acme.v2('PUT', `/upload/chunked/${encodeURIComponent(uploadId)}`, {
      chunk: Buffer.alloc(N, 7).toString('base64'),
    });
    expect(put.status, put.text).toBe(200);

    const after = (await scrape(metricsPort)).text;
    const delta = (labels: Record<string, string>, name = 'bo_http_requests_total') =>
      value(after, name, labels) - value(before, name, labels);
    const req = (door: string, method: string, route: string, status: string) => ({ door, method, route, status });

    expect(delta(req('v2', 'GET', '/api/v2/crm/organization', '200'))).toBe(3);
    expect(delta(req('v2', 'POST', '/api/v2/crm/organization', '200'))).toBe(1);
    expect(delta(req('v2', 'GET', '/api/v2/crm/organization/:id', '200'))).toBe(1);
    expect(delta(req('v2', 'GET', '/api/v2/crm/organization', '401'))).toBe(1);
    expect(delta(req('v3', 'GET', 'organization.list', '200'))).toBe(2);
    expect(delta(req('v3', 'GET', 'organization.get/{id}', '200'))).toBe(1);
    expect(delta(req('v3', 'GET', 'unmatched', '404'))).toBe(1);
    expect(delta(req('trpc', 'GET', 'crm.organization.list', '200'))).toBe(1);
    expect(delta(req('v2', 'GET', '/api/v2/crm/person', '200'))).toBe(PER_MINUTE);
    expect(delta(req('v2', 'GET', '/api/v2/crm/person', '429'))).toBe(1);
    expect(delta(req('v2', 'POST', '/api/v2/upload/chunked', '200'))).toBe(1);
    expect(delta(req('v2', 'PUT', '/api/v2/upload/chunked/:id', '200'))).toBe(1);
    // the duration histogram counts the same requests
    expect(delta(req('v2', 'GET', '/api/v2/crm/organization', '200'), 'bo_http_request_duration_seconds_count')).toBe(3);
    expect(
      value(after, 'bo_http_request_duration_seconds_bucket', { ...req('v3', 'GET', 'organization.list', '200'), le: '+Inf' }),
    ).toBe(value(after, 'bo_http_request_duration_seconds_count', req('v3', 'GET', 'organization.list', '200')));
    expect(delta({ reason: 'requests' }, 'bo_rate_limit_refusals_total')).toBe(1);
    expect(delta({ kind: 'upload' }, 'bo_upload_bytes_total')).toBe(N);
    // no raw URL is a label: neither the organization's id nor the upload's
    expect(after).not.toContain(id);
    expect(after).not.toContain(uploadId);
  });

  it('the pools, the job queues and the webhook deliveries are reported', async () => {
    const created = await acme.v2('POST', '/crm/organization', { name: 'Delivered BV' });
    const id = (created.body as { data: { id: string } }).data.id;
    await waitFor(() => receiver.received.find((r) => r.body.data.id === id), 10_000, 'the delivery');
    const text = await waitFor(async () => {
      const scraped = (await scrape(metricsPort)).text;
      return value(scraped, 'bo_webhook_delivery_attempts_total', { outcome: 'delivered' }) >= 1 ? scraped : null;
    });
    expect(value(text, 'bo_webhook_delivery_lag_seconds_count', {})).toBeGreaterThanOrEqual(1);
    expect(samples(text, 'bo_webhook_delivery_attempts_total').map((s) => s.labels.outcome)).toContain('failed');
    // the main pool of the primary cluster: its connections by state, its waits by cause
    const connections = samples(text, 'bo_db_pool_connections').filter((s) => s.labels.cluster === 'primary');
    expect(connections.map((s) => s.labels.state).sort()).toEqual(['idle', 'in_use']);
    expect(connections.reduce((n, s) => n + s.value, 0)).toBeGreaterThan(0);
    expect(
      samples(text, 'bo_db_pool_waits_total')
        .map((s) => s.labels.cause)
        .sort(),
    ).toEqual(['fair_share', 'pool']);
    expect(samples(text, 'bo_db_pool_waiting').map((s) => s.labels.cluster)).toEqual(['primary']);
    // every queue of the worker, an empty one as 0
    expect(value(text, 'bo_job_queue_depth', { queue: 'invoice-draft-request', state: 'queued' })).toBe(0);
    expect(samples(text, 'bo_job_queue_depth').length).toBeGreaterThanOrEqual(2);
    // no replicas: no replica lag
    expect(samples(text, 'bo_db_replica_lag_seconds')).toEqual([]);
  });

  it('the replica lag the read routing measures is a gauge per replica, gone with the replica', async () => {
    setReplicaLag('replica-a', 0.25);
    setReplicaLag('replica-b', 3);
    const measured = (await scrape(metricsPort)).text;
    expect(value(measured, 'bo_db_replica_lag_seconds', { replica: 'replica-a' })).toBe(0.25);
    expect(value(measured, 'bo_db_replica_lag_seconds', { replica: 'replica-b' })).toBe(3);
    setReplicaLag('replica-a', null);
    setReplicaLag('replica-b', null);
    expect(samples((await scrape(metricsPort)).text, 'bo_db_replica_lag_seconds')).toEqual([]);
  });
});

describe('request ids', () => {
  it('every door echoes a valid X-Request-Id, and answers one of its own otherwise', async () => {
    const id = 'client-req-0001:abc/def';
    const headers = { 'x-request-id': id };
    const answers = [
      await acme.v2('GET', '/crm/organization?limit=1', undefined, { headers }),
      await acme.v3('GET', '/organization.list', undefined, { headers }),
      await send(t.service.port, 'GET', trpcList, {
        host: 'acme.localhost',
        headers: { ...headers, authorization: `Bearer ${acme.token?.key}:${acme.token?.secret}` },
      }),
      await send(t.service.port, 'GET', '/settings/api', { host: 'acme.localhost', headers }),
      await acme.withToken(null).v2('GET', '/crm/organization', undefined, { headers }),
      await send(t.service.port, 'GET', '/nowhere', { host: 'acme.localhost', headers }),
    ];
    for (const a of answers) expect(a.headers['x-request-id']).toBe(id);
    // too long, or not printable: replaced
    for (const bad of ['x'.repeat(129), 'tab\there']) {
      const a = await acme.v2('GET', '/crm/organization?limit=1', undefined, { headers: { 'x-request-id': bad } });
      expect(a.headers['x-request-id']).not.toBe(bad);
      expect(String(a.headers['x-request-id'])).toMatch(/^[0-9a-f-]{36}$/);
    }
    const longest = 'y'.repeat(128);
    expect(
      (await acme.v3('GET', '/organization.list', undefined, { headers: { 'x-request-id': longest } })).headers['x-request-id'],
    ).toBe(longest);
  });

  it('a log line written in a request carries its request id, beside its own fields', () => {
    const lines: Record<string, unknown>[] = [];
    const log = serviceLogger('info', { write: (line: string) => lines.push(JSON.parse(line)) });
    const scope = { key: 'environment:acme', signal: new AbortController().signal, requestId: 'logged-req-9' };
    runInRequestScope(scope, () => log.error({ path: '/api/v2/x' }, 'unhandled error'));
    log.info({ workerPid: 7 }, 'outside any request');
    expect(lines[0]).toMatchObject({ requestId: 'logged-req-9', path: '/api/v2/x', msg: 'unhandled error' });
    expect(lines[1]).toMatchObject({ workerPid: 7, msg: 'outside any request' });
    expect(lines[1]).not.toHaveProperty('requestId');
  });

  it('the request id that made a change is sent with its webhook delivery', async () => {
    const requestId = 'change-made-by-request-42';
    const created = await acme.v2('POST', '/crm/organization', { name: 'Traced BV' }, { headers: { 'x-request-id': requestId } });
    expect(created.status, created.text).toBe(200);
    expect(created.headers['x-request-id']).toBe(requestId);
    const id = (created.body as { data: { id: string } }).data.id;
    const delivery = await waitFor(() => receiver.received.find((r) => r.body.data.id === id), 10_000, 'the delivery');
    expect(delivery.headers['x-request-id']).toBe(requestId);
    const [stored] = await t.db.query<{ request_id: string }>(`SELECT request_id FROM event WHERE entity_id = $1`, [id]);
    expect(stored?.request_id).toBe(requestId);
  });
});

describe('spans', () => {
  it('a request exports its span over OTLP with the statement spans below it', async () => {
    const requestId = 'span-request-7';
    const res = await acme.v3('GET', '/organization.list', undefined, { headers: { 'x-request-id': requestId } });
    expect(res.status).toBe(200);
    const span = await waitFor(
      () => collector.spans.find((s) => attribute(s, 'bo.request_id') === requestId && !s.parentSpanId),
      10_000,
      'the request span',
    );
    expect(span.name).toBe('v3 organization.list');
    expect(attribute(span, 'http.route')).toBe('organization.list');
    expect(attribute(span, 'http.response.status_code')).toBe(200);
    const statements = await waitFor(() => {
      const below = collector.spans.filter((s) => s.parentSpanId === span.spanId);
      return below.length > 0 ? below : null;
    });
    for (const s of statements) {
      expect(s.traceId).toBe(span.traceId);
      expect(s.name).toMatch(/^db [A-Z]+$/);
      expect(attribute(s, 'db.system.name')).toBe('postgresql');
    }
    expect(statements.some((s) => String(attribute(s, 'db.query.text')).includes('organization'))).toBe(true);
  });
});
