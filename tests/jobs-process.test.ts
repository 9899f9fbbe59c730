import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configFromEnv, jobsInOwnProcess } from '@bo/runtime';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { Receiver, waitFor } from './support/receiver.js';
import { type AppProcess, alive, startCompiledStart } from './support/worker-process.js';

/**
 * One process on a PostgreSQL server, started by the README's compiled start: the background
 * jobs (webhook deliveries among them) run in a process of their own, a child of the HTTP one,
 * so that a full event loop of requests does not hold them back. Observed from the outside: the
 * pids in the start-up log, the parent of each from /proc, and a webhook delivered to a receiver here.
 */
let db: TestDatabase;
let start: AppProcess;
const receiver = new Receiver();
const dirs: string[] = [];
const out = () => start.output();

const jobsPids = () => [...out().matchAll(/jobs process \(pid (\d+)\) started/g)].map((m) => Number(m[1]));
const port = () => Number(/service on https:\/\/localhost:(\d+)/.exec(out())?.[1]);
const parentOf = (pid: number) => Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ')[1]);

function call(method: string, p: string, headers: Record<string, string>, body?: unknown) {
  const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
  return new Promise<{ status: number; body: { data?: { id: string }; id?: string } }>((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: port(),
        method,
        path: p,
        rejectUnauthorized: false,
        headers: {
          host: `demo.localhost:${port()}`,
          ...headers,
          ...(payload ? { 'content-type': 'application/json', 'content-length': String(payload.length) } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** the HTTP process's /metrics (METRICS_PORT), which holds the jobs process's figures too */
function scrapeMetrics(): Promise<string> {
  const metricsPort = Number(/metrics on http:\/\/[^:]+:(\d+)\/metrics/.exec(out())?.[1]);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: metricsPort, path: '/metrics', agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    });
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  await receiver.start();
  db = await createTestDatabase();
  const dir = mkdtempSync(path.join(tmpdir(), 'bo-jobs-'));
  dirs.push(dir);
  start = await startCompiledStart({ DATABASE_URL: db.url, DATA_DIR: dir, PORT: '0', METRICS_PORT: '0' }, /worker started/);
  await waitFor(() => port() > 0, 30_000, 'the banner');
}, 150_000);

afterAll(async () => {
  if (start?.child.exitCode === null) start.kill('SIGKILL');
  for (const pid of jobsPids()) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {}
  }
  await receiver.stop();
  await db?.drop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe.skipIf(process.platform !== 'linux')('the jobs process of a start on a PostgreSQL server', () => {
  it('works the jobs in a child process of its own, is started again when it dies, and stops with the HTTP process', async () => {
    const [first] = jobsPids();
    expect(first, out()).toBeDefined();
    expect(alive(first as number)).toBe(true);
    expect(parentOf(first as number)).toBe(start.child.pid);

    const [, key, secret] = /Authentication-Key: (\w+)' -H 'Authentication-Secret: ([^']+)'/.exec(out()) ?? [];
    const v2 = { 'authentication-key': key ?? '', 'authentication-secret': secret ?? '' };
    const v3 = { authorization: `Bearer ${key}:${secret}` };
    expect(
      (await call('POST', '/api/v3/webhook.create', v3, { url: receiver.url, events: ['organization.created'] })).status,
    ).toBe(201);
    const deliveredOnce = async (name: string) => {
      const created = await call('POST', '/api/v2/crm/organization', v2, { name });
      expect(created.status).toBe(200);
      const id = created.body.data?.id as string;
      await waitFor(() => receiver.received.some((r) => r.body.data.id === id), 20_000, `the delivery of ${name}`);
    };
    await deliveredOnce('Delivered BV');
    // its success recorded: a jobs process killed between the receipt and that record leaves the
    // delivery leased, and the subscription's next one waits behind it until the lease ends
    // (2 × the time-out + 1 s, longer than this test waits)
    await waitFor(
      async () =>
        (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM webhook_delivery WHERE status = 'pending'`))[0]?.n === 0,
      20_000,
      'the delivery recorded',
    );
    // one scrape of the HTTP process's metrics port: its own requests and the jobs process's deliveries and queues
    const metrics = await scrapeMetrics();
    expect(metrics).toMatch(
      /^bo_http_requests_total\{door="v2",method="POST",route="\/api\/v2\/crm\/organization",status="200"\} 1$/m,
    );
    expect(metrics).toMatch(/^bo_webhook_delivery_attempts_total\{outcome="delivered"\} [1-9]/m);
    expect(metrics).toMatch(/^bo_job_queue_depth\{queue="[^"]+",state="queued"\} \d+$/m);

    // a jobs process that dies is started again; deliveries go on
    process.kill(first as number, 'SIGKILL');
    await waitFor(
      () => jobsPids().length >= 2 && /worker started[\s\S]*worker started/.test(out()),
      30_000,
      'another jobs process',
    );
    const second = jobsPids()[1] as number;
    expect(parentOf(second)).toBe(start.child.pid);
    await deliveredOnce('Delivered again BV');

    const killedAt = performance.now();
    start.kill('SIGTERM');
    const tree = [start.child.pid as number, second];
    await waitFor(() => !tree.some(alive), 15_000, 'the stop').catch(() => {});
    expect(tree.filter(alive)).toEqual([]);
    expect(performance.now() - killedAt).toBeLessThan(10_000);
  }, 90_000);

  it('only a single process on a server hands its jobs over: not on the embedded database, not in a cluster, not with WORKER_IN_PROCESS=true or RUN_WORKER=false', () => {
    const server = { DATA_DIR: tmpdir(), DATABASE_URL: db.url };
    expect(jobsInOwnProcess(configFromEnv(server), null)).toBe(true);
    // the embedded database is one session, held by the HTTP process
    expect(jobsInOwnProcess(configFromEnv({ DATA_DIR: tmpdir() }), null)).toBe(false);
    // in a cluster, process 1 works them
    expect(jobsInOwnProcess(configFromEnv(server), 1)).toBe(false);
    expect(jobsInOwnProcess(configFromEnv({ ...server, WORKER_IN_PROCESS: 'true' }), null)).toBe(false);
    expect(jobsInOwnProcess(configFromEnv({ ...server, RUN_WORKER: 'false' }), null)).toBe(false);
  });
});
