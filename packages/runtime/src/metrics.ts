import cluster from 'node:cluster';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { guardedPoolStats, replicaLagSeconds } from '@bo/db';
import { AggregatorRegistry, Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/** one process's metrics as JSON (Registry.getMetricsAsJSON), as they cross the IPC channel */
type metric = object;

/**
 * The process's Prometheus metrics (docs/observability.md lists them). Counting on the request
 * path is a few additions on numbers kept per label set (recordRequest); the rest are prom-client's
 * own metrics, bound to their label values once where they are hot.
 * Figures that live elsewhere (pool counts, replica lag, queue depth) are read at the scrape.
 *
 * Several processes serve one port (WEB_CONCURRENCY, and a start's jobs process): each counts in
 * its own registry, and the process that serves /metrics (the cluster's primary, or the single
 * process) asks the others for theirs over the cluster's IPC channel and sums them
 * (prom-client's AggregatorRegistry.aggregate), so one scrape answers totals over all processes.
 */
export const registry = new Registry();

collectDefaultMetrics({ register: registry });

/** the request histogram's upper bounds (seconds) */
const REQUEST_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] as const;

/** One label set's requests: plain numbers, so counting one costs no more than a few additions. */
interface RequestStats {
  labels: { door: string; method: string; route: string; status: string };
  count: number;
  sum: number;
  /** observations per bucket (not cumulative); the last slot is above every bound */
  buckets: number[];
}

/**
 * Requests per door, method and route, then per status. prom-client's own children validate and
 * hash their labels on every inc/observe (about 1.7 µs a request, measured); these counters are
 * read only at a scrape, by the two registry entries below, in prom-client's own JSON shape.
 */
const requestStats = new Map<string, Map<number, RequestStats>>();

type Sample = { labels: Record<string, string | number>; value: number; metricName?: string };

/** a metric of the registry whose samples are made at the scrape (prom-client calls get() then) */
function scrapedMetric(name: string, help: string, type: 'counter' | 'histogram', values: () => Sample[]) {
  registry.registerMetric({
    name,
    help,
    type,
    aggregator: 'sum',
    get: async () => ({ name, help, type, aggregator: 'sum', values: values() }),
    reset: () => {},
  } as unknown as Parameters<Registry['registerMetric']>[0]);
}

scrapedMetric(
  'bo_http_requests_total',
  'HTTP requests answered, by door, method, route template and status (499: the client went away first)',
  'counter',
  () => {
    const out: Sample[] = [];
    for (const byStatus of requestStats.values())
      for (const r of byStatus.values()) out.push({ labels: r.labels, value: r.count });
    return out;
  },
);

scrapedMetric(
  'bo_http_request_duration_seconds',
  'HTTP requests by door, method, route template and status: time from arrival to the last byte of the answer',
  'histogram',
  () => {
    const out: Sample[] = [];
    const name = 'bo_http_request_duration_seconds';
    for (const byStatus of requestStats.values()) {
      for (const r of byStatus.values()) {
        let cumulative = 0;
        for (let i = 0; i < REQUEST_BUCKETS.length; i += 1) {
          cumulative += r.buckets[i] as number;
          out.push({
            labels: { ...r.labels, le: REQUEST_BUCKETS[i] as number },
            value: cumulative,
            metricName: `${name}_bucket`,
          });
        }
        out.push({ labels: { ...r.labels, le: '+Inf' }, value: r.count, metricName: `${name}_bucket` });
        out.push({ labels: r.labels, value: r.sum, metricName: `${name}_sum` });
        out.push({ labels: r.labels, value: r.count, metricName: `${name}_count` });
      }
    }
    return out;
  },
);

const rateLimitRefusals = new Counter({
  name: 'bo_rate_limit_refusals_total',
  help: 'Requests refused with 429: reason "requests" (a token or session over its budget) or "auth_failures" (an address that failed to authenticate too often)',
  labelNames: ['reason'] as const,
  registers: [registry],
});

const uploadBytes = new Counter({
  name: 'bo_upload_bytes_total',
  help: 'Bytes of uploaded files received and stored, by kind of upload',
  labelNames: ['kind'] as const,
  registers: [registry],
});

const webhookAttempts = new Counter({
  name: 'bo_webhook_delivery_attempts_total',
  help: 'Webhook delivery attempts by outcome: delivered (a 2xx answer) or failed (any other answer, a timeout, a refused target)',
  labelNames: ['outcome'] as const,
  registers: [registry],
});

const webhookLag = new Histogram({
  name: 'bo_webhook_delivery_lag_seconds',
  help: 'Time from an event being committed to its successful delivery (retries included)',
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 1800, 3600],
  registers: [registry],
});

new Gauge({
  name: 'bo_db_pool_connections',
  help: 'Connections of the database pools by cluster and state (in_use: checked out, idle: open and free)',
  labelNames: ['cluster', 'state'] as const,
  registers: [registry],
  collect() {
    this.reset();
    for (const p of guardedPoolStats()) {
      this.labels(p.cluster, 'in_use').inc(p.inUse);
      this.labels(p.cluster, 'idle').inc(p.total - p.inUse);
    }
  },
});

new Gauge({
  name: 'bo_db_pool_waiting',
  help: 'Checkouts waiting for a connection now, by cluster',
  labelNames: ['cluster'] as const,
  registers: [registry],
  collect() {
    this.reset();
    for (const p of guardedPoolStats()) this.labels(p.cluster).inc(p.waiting);
  },
});

new Counter({
  name: 'bo_db_pool_waits_total',
  help: 'Checkouts that had to wait, by cluster and cause: pool (every connection busy) or fair_share (the environment held its share)',
  labelNames: ['cluster', 'cause'] as const,
  registers: [registry],
  collect() {
    this.reset();
    for (const p of guardedPoolStats()) {
      this.labels(p.cluster, 'pool').inc(p.waits);
      this.labels(p.cluster, 'fair_share').inc(p.fairShareWaits);
    }
  },
});

new Gauge({
  name: 'bo_db_replica_lag_seconds',
  help: 'Replication lag of each read replica as the read routing last measured it (absent without replicas)',
  labelNames: ['replica'] as const,
  // every process measures the same replicas: the worst reading, not a sum
  aggregator: 'max',
  registers: [registry],
  collect() {
    this.reset();
    for (const [replica, seconds] of replicaLagSeconds()) this.labels(replica).set(seconds);
  },
});

/** One queue's jobs waiting and running, as the job queue reports them. */
export interface QueueDepth {
  queue: string;
  queued: number;
  active: number;
}

let queueDepthSource: (() => Promise<QueueDepth[]>) | null = null;

/** The job queue's depth is read through this at each scrape (by the process that works the jobs). */
export function reportQueueDepth(source: (() => Promise<QueueDepth[]>) | null): void {
  queueDepthSource = source;
}

new Gauge({
  name: 'bo_job_queue_depth',
  help: 'Background jobs per queue and state (queued: waiting or to be retried, active: being worked), read from the queue at the scrape',
  labelNames: ['queue', 'state'] as const,
  // the same database read by whichever processes work jobs: one reading, not a sum
  aggregator: 'max',
  registers: [registry],
  async collect() {
    this.reset();
    if (!queueDepthSource) return;
    try {
      for (const q of await queueDepthSource()) {
        this.labels(q.queue, 'queued').set(q.queued);
        this.labels(q.queue, 'active').set(q.active);
      }
    } catch {
      // the database does not answer: no figure this time rather than a failed scrape
    }
  },
});

/** Counts one answered request (called when its response closes). */
export function recordRequest(door: string, method: string, route: string, status: number, seconds: number): void {
  const key = `${door} ${method} ${route}`;
  let byStatus = requestStats.get(key);
  if (byStatus === undefined) {
    byStatus = new Map();
    requestStats.set(key, byStatus);
  }
  let r = byStatus.get(status);
  if (r === undefined) {
    r = { labels: { door, method, route, status: String(status) }, count: 0, sum: 0, buckets: REQUEST_BUCKETS.map(() => 0) };
    r.buckets.push(0);
    byStatus.set(status, r);
  }
  r.count += 1;
  r.sum += seconds;
  let b = 0;
  while (b < REQUEST_BUCKETS.length && seconds > (REQUEST_BUCKETS[b] as number)) b += 1;
  (r.buckets as number[])[b] = (r.buckets[b] as number) + 1;
}

const refusedRequests = rateLimitRefusals.labels('requests');
const refusedAddresses = rateLimitRefusals.labels('auth_failures');
// shown as 0 before the first refusal: a rate() over a series that appears late misses its start
refusedRequests.inc(0);
refusedAddresses.inc(0);

/** Counts one rate-limit refusal. */
export function recordRateLimitRefusal(reason: 'requests' | 'auth_failures'): void {
  (reason === 'requests' ? refusedRequests : refusedAddresses).inc();
}

/** Counts the bytes of an upload received and stored. */
export function recordUploadBytes(kind: string, bytes: number): void {
  if (bytes > 0) uploadBytes.labels(kind).inc(bytes);
}

const delivered = webhookAttempts.labels('delivered');
const failed = webhookAttempts.labels('failed');
delivered.inc(0);
failed.inc(0);

/** Counts one webhook attempt; a success also observes the time since its event was committed. */
export function recordWebhookAttempt(ok: boolean, occurredAt: Date): void {
  if (!ok) {
    failed.inc();
    return;
  }
  delivered.inc();
  webhookLag.observe(Math.max(0, (Date.now() - occurredAt.getTime()) / 1000));
}

// ---- several processes: the one that serves /metrics gathers the others' over IPC

const REQUEST = 'bo-metrics-request';
const ANSWER = 'bo-metrics-answer';
/** a process that does not answer in time is left out of that scrape */
const GATHER_TIMEOUT_MS = 2_000;

interface MetricsRequest {
  type: typeof REQUEST;
  id: number;
}
interface MetricsAnswer {
  type: typeof ANSWER;
  id: number;
  metrics: metric[];
}

let answering = false;

/** In a process forked by node:cluster: answer the primary's requests for this process's metrics. */
export function answerMetricsRequests(): void {
  if (answering || !cluster.isWorker) return;
  answering = true;
  process.on('message', (m: unknown) => {
    if ((m as MetricsRequest | null)?.type !== REQUEST) return;
    const id = (m as MetricsRequest).id;
    registry.getMetricsAsJSON().then(
      (metrics) => process.send?.({ type: ANSWER, id, metrics: metrics as metric[] } satisfies MetricsAnswer),
      () => process.send?.({ type: ANSWER, id, metrics: [] } satisfies MetricsAnswer),
    );
  });
}

let nextRequestId = 0;

/** The metrics of the forked processes (cluster workers) of this one, each as JSON. */
async function gatherForked(): Promise<metric[][]> {
  if (!cluster.isPrimary) return [];
  const workers = Object.values(cluster.workers ?? {}).filter((w) => w?.isConnected());
  return Promise.all(
    workers.map(
      (w) =>
        new Promise<metric[]>((resolve) => {
          if (!w) return resolve([]);
          nextRequestId += 1;
          const id = nextRequestId;
          const done = (metrics: metric[]) => {
            clearTimeout(timer);
            w.off('message', onMessage);
            w.off('exit', onExit);
            resolve(metrics);
          };
          const onMessage = (m: unknown) => {
            if ((m as MetricsAnswer | null)?.type === ANSWER && (m as MetricsAnswer).id === id)
              done((m as MetricsAnswer).metrics);
          };
          const onExit = () => done([]);
          const timer = setTimeout(() => done([]), GATHER_TIMEOUT_MS);
          w.on('message', onMessage);
          w.on('exit', onExit);
          try {
            w.send({ type: REQUEST, id } satisfies MetricsRequest);
          } catch {
            done([]);
          }
        }),
    ),
  );
}

/** The text of one scrape: this process's metrics (unless `own` is false) summed with its forked processes'. */
export async function scrape(own: boolean): Promise<{ contentType: string; body: string }> {
  const forked = (await gatherForked()).filter((m) => m.length > 0);
  if (own && forked.length === 0) return { contentType: registry.contentType, body: await registry.metrics() };
  const all = own ? [(await registry.getMetricsAsJSON()) as metric[], ...forked] : forked;
  const merged = AggregatorRegistry.aggregate(all);
  return { contentType: merged.contentType, body: await merged.metrics() };
}

export interface MetricsServer {
  port: number;
  close(): Promise<void>;
}

/**
 * The metrics listener: GET /metrics on its own port (METRICS_PORT), apart from the public
 * listener, on 127.0.0.1 unless METRICS_HOST says otherwise. Anything else answers 404.
 */
export function startMetricsServer(opts: { port: number; host: string; own: boolean }): Promise<MetricsServer> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
      return;
    }
    scrape(opts.own).then(
      ({ contentType, body }) => res.writeHead(200, { 'content-type': contentType }).end(req.method === 'HEAD' ? '' : body),
      () => res.writeHead(503, { 'content-type': 'text/plain' }).end('metrics unavailable'),
    );
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => {
      server.off('error', reject);
      resolve({
        port: (server.address() as AddressInfo).port,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}
