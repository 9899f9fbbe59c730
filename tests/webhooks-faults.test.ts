import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Receiver, sleep, waitFor } from './support/receiver.js';
import { type ApiClient, startTestService, type TestService } from './support/service.js';
import { startWorkerProcess, type WorkerProcess } from './support/worker-process.js';

/** The API serves without working jobs; separate worker processes deliver, as in a scaled deployment. */
let t: TestService;
let acme: ApiClient;
const workers: WorkerProcess[] = [];
const receivers: Receiver[] = [];

const workerEnv = () => ({
  DATABASE_URL: t.db.url,
  DATA_DIR: t.dataDir,
  WEBHOOK_TIMEOUT_MS: '1000',
  WEBHOOK_RETRY_BASE_MS: '50',
  WEBHOOK_RETRY_MAX_DELAY_MS: '200',
  WEBHOOK_POLL_INTERVAL_MS: '25',
});

async function worker(): Promise<WorkerProcess> {
  const w = await startWorkerProcess(workerEnv());
  workers.push(w);
  return w;
}

async function receiver(reply?: ConstructorParameters<typeof Receiver>[0]): Promise<Receiver> {
  const r = await new Receiver(reply).start();
  receivers.push(r);
  return r;
}

async function subscribe(url: string): Promise<string> {
  const res = await acme.v3('POST', '/webhook.create', { url, events: ['organization.created'] });
  expect(res.status, res.text).toBe(201);
  return (res.body as { id: string }).id;
}

async function createOrganization(name: string): Promise<string> {
  const res = await acme.v2('POST', '/crm/organization', { name });
  expect(res.status, res.text).toBe(200);
  return (res.body as { data: { id: string } }).data.id;
}

beforeAll(async () => {
  t = await startTestService({ runWorker: false });
  acme = await t.environment('acme');
});
afterEach(async () => {
  for (const w of workers.splice(0)) {
    if (w.child.exitCode === null && w.child.signalCode === null) {
      w.kill('SIGKILL');
      await w.exited;
    }
  }
  // subscriptions of one test must not receive the next test's events
  await t.db.query('UPDATE webhook_subscription SET is_active = false');
});
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.stop()));
  await t?.stop();
});

describe('worker faults (separate worker processes on the PostgreSQL server)', () => {
  it('a worker killed with SIGKILL in the middle of a delivery delivers after a restart', async () => {
    let hang = true;
    const r = await receiver(() => (hang ? { status: 200, delayMs: 10_000 } : { status: 200 }));
    await subscribe(r.url);
    const first = await worker();
    const id = await createOrganization('Killed Mid Delivery');
    await waitFor(() => r.received.length === 1, 15_000, 'the first request');
    first.kill('SIGKILL');
    expect(await first.exited).toBe('SIGKILL');
    hang = false;
    await worker();
    await waitFor(() => r.received.length >= 2, 15_000, 'redelivery after restart');
    expect(r.received.map((x) => x.body.data.id)).toEqual([id, id]);
    // the same event id, so the receiver can drop the duplicate
    expect(r.received[1]?.headers['x-webhook-id']).toBe(r.received[0]?.headers['x-webhook-id']);
    const rows = await waitFor(async () => {
      const d = await t.db.query<{ status: string; attempts: number }>(
        `SELECT status, attempts FROM webhook_delivery WHERE event_id = $1::uuid`,
        [r.received[0]?.body.id],
      );
      return d[0]?.status === 'succeeded' ? d : null;
    });
    expect(rows[0]?.attempts).toBe(2);
  });

  it('two workers deliver each event once', async () => {
    const r = await receiver();
    await subscribe(r.url);
    const r2 = await receiver();
    await subscribe(r2.url);
    await Promise.all([worker(), worker()]);
    const ids: string[] = [];
    for (let i = 0; i < 40; i += 1) ids.push(await createOrganization(`Two Workers ${i}`));
    await waitFor(() => r.received.length >= 40 && r2.received.length >= 40, 20_000, 'forty deliveries each');
    await sleep(500);
    for (const rec of [r, r2]) {
      expect(rec.received).toHaveLength(40);
      expect(rec.received.map((x) => x.body.data.id)).toEqual(ids);
    }
  });

  it('a backlog longer than one claimed run reaches one subscription in order, each event exactly once, with two workers', async () => {
    const r = await receiver();
    const sub = await subscribe(r.url);
    // the backlog builds while no worker runs: 120 events, more than one run of 100
    const ids: string[] = [];
    for (let i = 0; i < 120; i += 1) ids.push(await createOrganization(`Backlog ${i}`));
    await Promise.all([worker(), worker()]);
    await waitFor(() => r.received.length >= 120, 30_000, '120 deliveries');
    await sleep(500);
    expect(r.received.map((x) => x.body.data.id)).toEqual(ids);
    expect(new Set(r.received.map((x) => x.headers['x-webhook-id'])).size).toBe(120);
    const rows = await t.db.query<{ status: string; attempts: number; n: number }>(
      `SELECT d.status, d.attempts, (SELECT count(*)::int FROM webhook_attempt a WHERE a.delivery_id = d.id) AS n
       FROM webhook_delivery d WHERE d.subscription_id = $1`,
      [sub],
    );
    expect(rows).toHaveLength(120);
    // every delivery succeeded at its first attempt, with one attempt logged and no lease left behind
    expect(rows.every((x) => x.status === 'succeeded' && x.attempts === 1 && x.n === 1)).toBe(true);
  }, 90_000);

  it('SIGTERM finishes the delivery in flight and exits', async () => {
    const r = await receiver(() => ({ status: 200, delayMs: 800 }));
    await subscribe(r.url);
    const w = await worker();
    await createOrganization('Graceful Stop');
    await waitFor(() => r.received.length === 1, 15_000, 'the request');
    w.kill('SIGTERM');
    expect(await w.exited).toBe(0);
    const d = await t.db.query<{ status: string; attempts: number }>(
      `SELECT status, attempts FROM webhook_delivery WHERE event_id = $1::uuid`,
      [r.received[0]?.body.id],
    );
    expect(d[0]).toEqual({ status: 'succeeded', attempts: 1 });
    expect(w.output()).toContain('finishing the jobs in flight');
  });
});
