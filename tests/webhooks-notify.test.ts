import pg from 'pg';
import { LISTENER_APPLICATION_NAME } from '@bo/db';
import { setbackRetryMs } from '@bo/domain/webhooks/delivery-policy';
import { dispatchEvents } from '@bo/domain/webhooks/dispatch-events';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { Receiver, waitFor } from './support/receiver.js';
import { type ApiClient, startTestService, type TestService } from './support/service.js';
import { startWorkerProcess, type WorkerProcess } from './support/worker-process.js';

/**
 * Webhook dispatch on LISTEN/NOTIFY: every service here polls only every 10 minutes, so a
 * delivery within 8 s of its commit can only have been woken by a notification (or, where
 * the test says so, by the fallback poll it sets short). 8 s, not the tenth of a second it
 * takes on a quiet machine: CI runs two test files at once on two cores, and these rules
 * are about what wakes the dispatcher, not about how fast the machine is.
 */
const LONG_POLL = 600_000;
const WITHIN_MS = 8_000;

const services: TestService[] = [];
const receivers: Receiver[] = [];
const workers: WorkerProcess[] = [];

afterEach(async () => {
  for (const w of workers.splice(0)) {
    if (w.child.exitCode === null && w.child.signalCode === null) {
      w.kill('SIGKILL');
      await w.exited;
    }
  }
});
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.stop()));
  for (const s of services) await s.stop();
});

async function service(webhooks: Parameters<typeof startTestService>[0] = {}): Promise<TestService> {
  const s = await startTestService(webhooks);
  services.push(s);
  return s;
}

async function receiver(reply?: ConstructorParameters<typeof Receiver>[0]): Promise<Receiver> {
  const r = await new Receiver(reply).start();
  receivers.push(r);
  return r;
}

async function subscribe(client: ApiClient, url: string): Promise<string> {
  const res = await client.v3('POST', '/webhook.create', { url, events: ['organization.created'] });
  expect(res.status, res.text).toBe(201);
  return (res.body as { id: string }).id;
}

/** creates an organization; answers its id and when the API answered (the commit) */
async function createOrganization(client: ApiClient, name: string): Promise<{ id: string; at: number }> {
  const res = await client.v2('POST', '/crm/organization', { name });
  expect(res.status, res.text).toBe(200);
  return { id: (res.body as { data: { id: string } }).data.id, at: Date.now() };
}

/** the backends of listening connections on the service's database */
async function listeners(t: TestService): Promise<number[]> {
  const rows = await t.db.query<{ pid: number }>(
    `SELECT pid FROM pg_stat_activity WHERE datname = $1 AND application_name = $2 AND query LIKE 'LISTEN%'`,
    [t.db.name, LISTENER_APPLICATION_NAME],
  );
  return rows.map((r) => r.pid);
}

/**
 * A service whose worker listens and polls only every 10 minutes, with a receiver subscribed to
 * acme's new organizations: a delivery within WITHIN_MS can only have been woken otherwise.
 */
async function listeningSetUp(
  webhooks: Record<string, number> = {},
  reply?: ConstructorParameters<typeof Receiver>[0],
): Promise<{ t: TestService; acme: ApiClient; r: Receiver }> {
  const t = await service({
    runWorker: true,
    webhooks: { pollIntervalMs: LONG_POLL, listeningPollIntervalMs: LONG_POLL, ...webhooks },
  });
  const acme = await t.environment('acme');
  await waitFor(async () => (await listeners(t)).length === 1, 10_000, 'the worker to listen');
  const r = await receiver(reply);
  await subscribe(acme, r.url);
  return { t, acme, r };
}

async function arrival(r: Receiver, id: string, timeoutMs = WITHIN_MS + 2_000): Promise<number> {
  return (await waitFor(() => r.received.find((x) => x.body.data.id === id), timeoutMs, `delivery of ${id}`)).at;
}

// several waits of up to WITHIN_MS each in one test
describe('webhook dispatch on LISTEN/NOTIFY', { timeout: 120_000 }, () => {
  it('a committed event is delivered without waiting for the poll', async () => {
    const { acme, r } = await listeningSetUp();
    for (let i = 0; i < 5; i += 1) {
      const { id, at } = await createOrganization(acme, `Notified ${i}`);
      const got = await arrival(r, id);
      expect(got - at, `event ${i}`).toBeLessThan(WITHIN_MS);
    }
  });

  it('a burst of concurrent writes is delivered without waiting for the poll (writers that stay silent are followed up by the dispatcher)', async () => {
    const { acme, r } = await listeningSetUp();
    for (let round = 0; round < 3; round += 1) {
      const made: { id: string; at: number }[] = [];
      await Promise.all(
        Array.from({ length: 6 }, async (_, lane) => {
          for (let i = 0; i < 8; i += 1) made.push(await createOrganization(acme, `Burst ${round}.${lane}.${i}`));
        }),
      );
      const last = Math.max(...made.map((m) => m.at));
      await waitFor(
        () => made.every((m) => r.received.some((x) => x.body.data.id === m.id)),
        WITHIN_MS + 2_000,
        `the burst ${round}`,
      );
      expect(Math.max(...r.received.map((x) => x.at)) - last, `burst ${round}`).toBeLessThan(WITHIN_MS);
    }
  });

  it('a writer notifies only when it finds the dispatcher caught up, and only once it commits', async () => {
    const t = await service();
    const env = (await t.db.query<{ id: string }>(`INSERT INTO environment (id, name) VALUES ('env-n', 'n') RETURNING id`))[0]
      ?.id;
    const listen = new pg.Client({ connectionString: t.db.url });
    const writer = new pg.Client({ connectionString: t.db.url });
    await listen.connect();
    await writer.connect();
    try {
      const heard: string[] = [];
      listen.on('notification', (m) => heard.push(m.channel));
      await listen.query('LISTEN event_recorded');
      const insert = (n: number) =>
        writer.query(
          `INSERT INTO event (id, environment_id, type, entity_type, entity_id, data)
           SELECT gen_random_uuid(), $1, 'organization.created', 'organization', 'organization:' || g, '{}'
           FROM generate_series(1, $2::int) g`,
          [env, n],
        );
      const settle = () => new Promise((r) => setTimeout(r, 150));
      // the dispatcher caught up (its cursor at the last event): the next writer notifies, at commit
      await t.db.query(
        `INSERT INTO webhook_dispatch_cursor (id, last_seq, updated_at) VALUES (1, 0, now())
         ON CONFLICT (id) DO UPDATE SET last_seq = (SELECT coalesce(max(seq), 0) FROM event)`,
      );
      await writer.query('BEGIN');
      await insert(3);
      await settle();
      expect(heard).toEqual([]);
      await writer.query('COMMIT');
      await waitFor(() => heard.length === 1, 5_000, 'the notification');
      // the dispatcher behind (those three not dispatched yet): the next writer stays silent
      await insert(1);
      await settle();
      expect(heard).toEqual(['event_recorded']);
      // caught up again
      await t.db.query(`UPDATE webhook_dispatch_cursor SET last_seq = (SELECT max(seq) FROM event) WHERE id = 1`);
      await insert(2);
      await waitFor(() => heard.length === 2, 5_000, 'the second notification');
    } finally {
      await listen.end();
      await writer.end();
    }
  });

  it('a dispatcher that moved its cursor while a writer took a later sequence number follows up through the barrier', async () => {
    // no worker: this test is the dispatcher
    const t = await service();
    const prisma = t.service.database.prisma;
    await t.db.query(`INSERT INTO environment (id, name) VALUES ('env-f', 'f')`);
    const insert = () =>
      t.db.query(
        `INSERT INTO event (id, environment_id, type, entity_type, entity_id, data)
         VALUES (gen_random_uuid(), 'env-f', 'organization.created', 'organization', 'organization:x', '{}')`,
      );
    await insert();
    await insert();
    // nothing taken past the events it fans out: no follow-up
    expect(await dispatchEvents(prisma)).toEqual({ moved: expect.any(Number), followUp: false, gaveUp: false });
    expect(await dispatchEvents(prisma)).toEqual({ moved: 0, followUp: false, gaveUp: false });
    await insert();
    // a writer in flight has taken the next seq (it found an event pending and stays silent)
    await t.db.query(`SELECT nextval('event_seq_seq')`);
    const moved = await dispatchEvents(prisma);
    expect(moved).toEqual({ moved: expect.any(Number), followUp: true, gaveUp: false });
    expect(moved.moved).toBeGreaterThan(0);
    // the follow-up goes through the barrier even though the cheap check sees nothing new
    expect(await dispatchEvents(prisma, { barrier: true })).toEqual({ moved: 0, followUp: false, gaveUp: false });
  });

  it('a dispatcher whose barrier gave up to a long writer of events tries again on its own, not at the next poll (writers stay silent while it is behind)', async () => {
    const { t, acme, r } = await listeningSetUp();
    // a long writer of the outbox: its lock holds the barrier back (the barrier gives up after 50 ms)
    const writer = new pg.Client({ connectionString: t.db.url });
    await writer.connect();
    try {
      await writer.query('BEGIN');
      await writer.query('LOCK TABLE event IN ROW EXCLUSIVE MODE');
      // found the dispatcher caught up: notifies at commit, and the woken dispatcher's barrier gives up
      const first = await createOrganization(acme, 'Held Back');
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(r.received.some((x) => x.body.data.id === first.id)).toBe(false);
      // the long writer ends without an event: nothing notifies, only the dispatcher's own retry moves on
      await writer.query('ROLLBACK');
      const released = Date.now();
      expect((await arrival(r, first.id)) - released).toBeLessThan(WITHIN_MS);
    } finally {
      await writer.end();
    }
  });

  it('a setback is retried after 50 ms, doubled with each one in a row up to 1 s, and never later than the poll', () => {
    const poll = { pollIntervalMs: LONG_POLL };
    expect([1, 2, 3, 4, 5, 6, 7, 40].map((n) => setbackRetryMs(poll, n))).toEqual([50, 100, 200, 400, 800, 1000, 1000, 1000]);
    expect(setbackRetryMs({ pollIntervalMs: 100 }, 5)).toBe(100);
    expect(setbackRetryMs({ pollIntervalMs: 0 }, 1)).toBe(0);
  });

  it('deliveries fall back to polling when the listener is down (DB_LISTEN=false: no listening connection)', async () => {
    const t = await service({
      runWorker: true,
      webhooks: { listen: false, pollIntervalMs: 200, listeningPollIntervalMs: LONG_POLL },
    });
    const acme = await t.environment('acme');
    const r = await receiver();
    await subscribe(acme, r.url);
    const { id, at } = await createOrganization(acme, 'Polled');
    expect((await arrival(r, id)) - at).toBeLessThan(WITHIN_MS);
    expect(await listeners(t)).toEqual([]);
  });

  it("an event committed while the listener's connection is down is delivered as soon as it is back, without waiting for the poll", async () => {
    const t = await service({
      runWorker: true,
      webhooks: { pollIntervalMs: LONG_POLL, listeningPollIntervalMs: LONG_POLL },
    });
    const acme = await t.environment('acme');
    const [pid] = await waitFor(async () => {
      const l = await listeners(t);
      return l.length === 1 ? l : null;
    });
    const r = await receiver();
    await subscribe(acme, r.url);
    await t.db.query('SELECT pg_terminate_backend($1)', [pid]);
    // committed while nobody listens: its notification is lost, the reconnection says "look again"
    const missed = await createOrganization(acme, 'While Down');
    expect((await arrival(r, missed.id)) - missed.at).toBeLessThan(WITHIN_MS);
    const [again] = await waitFor(async () => {
      const l = await listeners(t);
      return l.length === 1 ? l : null;
    });
    expect(again).not.toBe(pid);
    const next = await createOrganization(acme, 'After Reconnect');
    expect((await arrival(r, next.id)) - next.at).toBeLessThan(WITHIN_MS);
  });

  it('a failed attempt is retried when its back-off ends, without waiting for the poll', async () => {
    const { acme, r } = await listeningSetUp({ retryBaseMs: 200, retryMaxDelayMs: 400 }, (n) => ({
      status: n <= 2 ? 500 : 200,
    }));
    const { at } = await createOrganization(acme, 'Retried');
    await waitFor(() => r.received.length >= 3, WITHIN_MS + 2_000, 'three attempts');
    expect(r.received.map((x) => x.headers['x-webhook-attempt'])).toEqual(['1', '2', '3']);
    // back-offs of 100–200 ms and 200–400 ms
    expect((r.received[2]?.at ?? 0) - at).toBeLessThan(WITHIN_MS);
  });

  it('a resent delivery goes out without waiting for the poll', async () => {
    const t = await service({
      runWorker: true,
      webhooks: {
        pollIntervalMs: LONG_POLL,
        listeningPollIntervalMs: LONG_POLL,
        retryBaseMs: 30,
        retryMaxDelayMs: 60,
        retryWindowMs: 300,
        timeoutMs: 500,
      },
    });
    const acme = await t.environment('acme');
    await waitFor(async () => (await listeners(t)).length === 1, 10_000, 'the worker to listen');
    let up = false;
    const r = await receiver(() => ({ status: up ? 200 : 503 }));
    const sub = await subscribe(acme, r.url);
    await createOrganization(acme, 'Resent');
    const failed = await waitFor(
      async () => {
        const res = await acme.v3('GET', `/webhook.delivery.list?webhookId=${encodeURIComponent(sub)}&status=failed`);
        return (res.body as { items: { id: string }[] }).items[0];
      },
      WITHIN_MS + 2_000,
      'a failed delivery',
    );
    up = true;
    const before = r.received.length;
    const resentAt = Date.now();
    const res = await acme.v3('POST', '/webhook.delivery.resend', { id: failed.id });
    expect(res.status, res.text).toBe(200);
    const got = await waitFor(() => r.received[before], WITHIN_MS + 2_000, 'the resent delivery');
    expect(got.at - resentAt).toBeLessThan(WITHIN_MS);
    expect(got.headers['x-webhook-id']).toBe(r.received[0]?.headers['x-webhook-id']);
  });

  it('events of one subscription arrive in the order they happened when two listening workers are woken by the same notifications', async () => {
    const t = await service({ runWorker: false });
    const acme = await t.environment('acme');
    // a time-out (and with it the lease, 2 × it + 1 s) well above any stall of a loaded machine: here a
    // second delivery of a success may only come from two workers holding one delivery, never from an
    // answer that came after a 1 s time-out (at least once, rightly sent again; seen once in CI at load)
    const env = {
      DATABASE_URL: t.db.url,
      DATA_DIR: t.dataDir,
      WEBHOOK_TIMEOUT_MS: '5000',
      WEBHOOK_RETRY_BASE_MS: '50',
      WEBHOOK_RETRY_MAX_DELAY_MS: '200',
      WEBHOOK_POLL_INTERVAL_MS: String(LONG_POLL),
      WEBHOOK_LISTENING_POLL_INTERVAL_MS: String(LONG_POLL),
    };
    workers.push(await startWorkerProcess(env), await startWorkerProcess(env));
    await waitFor(async () => (await listeners(t)).length === 2, 10_000, 'both workers to listen');
    // every fifth request fails once, and answers take a little while: runs are cut and resumed
    const r = await receiver((n) => ({ status: n % 5 === 0 ? 500 : 200, delayMs: n % 3 }));
    await subscribe(acme, r.url);
    const ids: string[] = [];
    await Promise.all(
      Array.from({ length: 3 }, async (_, lane) => {
        for (let i = 0; i < 10; i += 1) ids.push((await createOrganization(acme, `Lane ${lane} #${i}`)).id);
      }),
    );
    // the order in which they were committed is the order of their events
    const committed = (
      await t.db.query<{ entity_id: string }>(
        `SELECT entity_id FROM event WHERE type = 'organization.created' AND entity_id = ANY($1) ORDER BY seq`,
        [ids],
      )
    ).map((x) => x.entity_id);
    expect(committed).toHaveLength(30);
    await waitFor(
      () => new Set(r.received.filter((x) => ids.includes(x.body.data.id as string)).map((x) => x.body.id)).size === 30,
      15_000,
      'thirty events',
    );
    const firsts: string[] = [];
    for (const x of r.received) if (!firsts.includes(x.body.data.id as string)) firsts.push(x.body.data.id as string);
    expect(firsts).toEqual(committed);
    // a success is never sent again
    const succeeded = r.received.filter((_, i) => (i + 1) % 5 !== 0).map((x) => x.body.id);
    expect(new Set(succeeded).size).toBe(succeeded.length);
  });
});
