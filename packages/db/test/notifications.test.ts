// The process's notification listener against the real local PostgreSQL server, in a
// database this file creates with a random name and drops afterwards.
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  CATCH_UP_QUERY,
  CAUGHT_UP_TIMEOUT_MS,
  createNotificationListener,
  LISTENER_APPLICATION_NAME,
} from '../src/notifications.js';
import { poolConfig } from '../src/pool.js';

const adminUrl = process.env.TEST_PG_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const name = `bo_dbtest_${randomBytes(6).toString('hex')}`;
let url = '';
let other: pg.Client;

async function admin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: adminUrl });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

async function waitFor<T>(fn: () => T | Promise<T>, ms = 5_000, what = 'condition'): Promise<NonNullable<T>> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v as NonNullable<T>;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** a listener on a server connection, once it listens to `channel` (its first notification, empty, came) */
async function listeningTo(channel: string) {
  const listener = createNotificationListener({ pool: poolConfig(url, { embedded: false, idleTimeoutMs: 10_000 }) });
  const heard: string[] = [];
  listener.on(channel, (p) => heard.push(p));
  await waitFor(() => listener.listening && heard.includes(''), 5_000, 'listening');
  return { listener, heard };
}

/** the backends of the listening connection on this file's database */
async function listenerBackends(): Promise<number[]> {
  const r = await other.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = $1 AND application_name = $2', [
    name,
    LISTENER_APPLICATION_NAME,
  ]);
  return r.rows.map((x) => x.pid);
}

/** A TCP relay to the server that can go silent: it keeps the sockets open and holds what comes until it speaks again. */
async function silentRelay(): Promise<{ url: string; silent(on: boolean): void; close(): Promise<void> }> {
  const server = new URL(url);
  let quiet = false;
  const held: (() => void)[] = [];
  const sockets = new Set<net.Socket>();
  const relay = net.createServer((inbound) => {
    const outbound = net.connect(Number(server.port || 5432), server.hostname);
    for (const s of [inbound, outbound]) {
      sockets.add(s);
      s.on('error', () => {});
      s.on('close', () => sockets.delete(s));
    }
    const pass = (to: net.Socket) => (c: Buffer) => (quiet ? held.push(() => to.write(c)) : to.write(c));
    inbound.on('data', pass(outbound));
    outbound.on('data', pass(inbound));
    inbound.on('close', () => outbound.destroy());
    outbound.on('close', () => inbound.destroy());
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  const relayed = new URL(url);
  relayed.hostname = '127.0.0.1';
  relayed.port = String((relay.address() as net.AddressInfo).port);
  return {
    url: relayed.toString(),
    silent(on) {
      quiet = on;
      if (!on) for (const write of held.splice(0)) write();
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => relay.close(resolve));
    },
  };
}

beforeAll(async () => {
  await admin((c) => c.query(`CREATE DATABASE "${name}"`));
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  url = u.toString();
  other = new pg.Client({ connectionString: url });
  await other.connect();
});

afterAll(async () => {
  await other?.end();
  await admin((c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
});

describe('notification listener', () => {
  it('a NOTIFY committed in another connection reaches the handler; an uncommitted or rolled-back one does not', async () => {
    const { listener, heard } = await listeningTo('bo_test_a');
    try {
      heard.length = 0;
      await other.query('BEGIN');
      await other.query(`SELECT pg_notify('bo_test_a', 'one')`);
      await new Promise((r) => setTimeout(r, 100));
      expect(heard).toEqual([]);
      await other.query('COMMIT');
      await waitFor(() => heard.includes('one'), 5_000, 'the committed notification');
      await other.query('BEGIN');
      await other.query(`SELECT pg_notify('bo_test_a', 'rolled back')`);
      await other.query('ROLLBACK');
      await other.query(`SELECT pg_notify('bo_test_a', 'two')`);
      await waitFor(() => heard.includes('two'), 5_000, 'the next notification');
      expect(heard).toEqual(['one', 'two']);
    } finally {
      await listener.close();
    }
  });

  it('walPositionSince answers a WAL position of the primary read after it was asked: at or past the end of every commit made before', async () => {
    const { listener } = await listeningTo('bo_test_lsn');
    try {
      await other.query('CREATE TABLE IF NOT EXISTS lsn_probe (n int)');
      for (let i = 0; i < 5; i += 1) {
        await other.query('INSERT INTO lsn_probe VALUES ($1)', [i]);
        const after = (await other.query<{ lsn: string }>('SELECT pg_current_wal_insert_lsn()::text AS lsn')).rows[0]?.lsn;
        const since = performance.now();
        const lsn = await listener.walPositionSince(since);
        expect(lsn).not.toBeNull();
        const { rows } = await other.query<{ ok: boolean }>('SELECT $1::pg_lsn >= $2::pg_lsn AS ok', [lsn, after]);
        expect(rows[0]?.ok).toBe(true);
      }
    } finally {
      await listener.close();
    }
    expect(await listener.walPositionSince(performance.now())).toBeNull();
  });

  it('caughtUp answers true only once every notification committed before it was asked has reached its handler, one query serving callers that wait at once', async () => {
    const { listener, heard } = await listeningTo('bo_test_c');
    try {
      const query = vi.spyOn(pg.Client.prototype, 'query');
      const catchUpQueries = () =>
        query.mock.calls.filter(
          (call, k) =>
            // the catch-up is sent as a prepared statement: its text is the config's
            (call[0] as { text?: unknown } | undefined)?.text === CATCH_UP_QUERY && query.mock.contexts[k] !== other,
        ).length;
      try {
        for (let i = 0; i < 50; i += 1) {
          await other.query(`SELECT pg_notify('bo_test_c', 'n${i}')`);
          const sent = catchUpQueries();
          // asked right after the commit, before the notification had time to come on its own
          const answers = await Promise.all(Array.from({ length: 5 }, () => listener.caughtUp(performance.now())));
          expect(answers).toEqual([true, true, true, true, true]);
          expect(heard).toContain(`n${i}`);
          expect(catchUpQueries() - sent).toBe(1);
        }
        // asked again for a moment an answered query already covers: answered at once, no new query
        const since = performance.now();
        await listener.caughtUp(since);
        const sent = catchUpQueries();
        expect((await Promise.all(Array.from({ length: 20 }, () => listener.caughtUp(since)))).every(Boolean)).toBe(true);
        expect(catchUpQueries()).toBe(sent);
      } finally {
        query.mockRestore();
      }
    } finally {
      await listener.close();
    }
  });

  it(`a listening connection gone silent makes caughtUp answer false after ${CAUGHT_UP_TIMEOUT_MS} ms, then at once until it answers again`, async () => {
    const relay = await silentRelay();
    const listener = createNotificationListener({ connectionString: relay.url, embedded: false, healthCheckMs: 60_000 });
    try {
      await waitFor(() => listener.listening, 5_000, 'listening');
      expect(await listener.caughtUp(performance.now())).toBe(true);
      relay.silent(true);
      const started = performance.now();
      expect(await listener.caughtUp(performance.now())).toBe(false);
      const waited = performance.now() - started;
      expect(waited).toBeGreaterThanOrEqual(CAUGHT_UP_TIMEOUT_MS - 5);
      const again = performance.now();
      expect(await listener.caughtUp(performance.now())).toBe(false);
      expect(performance.now() - again).toBeLessThan(50);
      relay.silent(false);
      // the unanswered query's answer comes through; the next caller is caught up again
      await waitFor(async () => listener.caughtUp(performance.now()), 5_000, 'caught up again');
    } finally {
      await listener.close();
      await relay.close();
    }
  });

  it('caughtUp answers false where nothing listens (the embedded database) and once the listener is closed', async () => {
    const embedded = createNotificationListener({ connectionString: url, embedded: true });
    expect(await embedded.caughtUp(performance.now())).toBe(false);
    const listener = createNotificationListener({ pool: poolConfig(url, { embedded: false, idleTimeoutMs: 10_000 }) });
    await waitFor(() => listener.listening, 5_000, 'listening');
    expect(await listener.caughtUp(performance.now())).toBe(true);
    await listener.close();
    expect(await listener.caughtUp(performance.now())).toBe(false);
  });

  it('channels subscribed at once on a listening connection are LISTENed one after another, and each is heard', async () => {
    const listener = createNotificationListener({ pool: poolConfig(url, { embedded: false, idleTimeoutMs: 10_000 }) });
    // pg warns of a query sent while others wait on the connection (and pg 9 refuses it)
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(`${w.name}: ${w.message}`);
    process.on('warning', onWarning);
    try {
      const heard: string[] = [];
      listener.on('bo_test_first', () => {});
      await waitFor(() => listener.listening, 5_000, 'listening');
      const channels = ['bo_test_c1', 'bo_test_c2', 'bo_test_c3', 'bo_test_c4'];
      for (const c of channels) listener.on(c, (p) => heard.push(`${c}:${p}`));
      await waitFor(() => channels.every((c) => heard.includes(`${c}:`)), 5_000, 'every LISTEN');
      for (const c of channels) await other.query('SELECT pg_notify($1, $2)', [c, 'x']);
      await waitFor(() => channels.every((c) => heard.includes(`${c}:x`)), 5_000, 'every notification');
      await new Promise((r) => setImmediate(r));
      expect(warnings).toEqual([]);
    } finally {
      process.off('warning', onWarning);
      await listener.close();
    }
  });

  it("after the listener's connection is killed it reconnects, LISTENs again and hears the next one", async () => {
    const listener = createNotificationListener({
      pool: poolConfig(url, { embedded: false, idleTimeoutMs: 10_000 }),
      reconnectMinMs: 50,
    });
    try {
      const heard: string[] = [];
      listener.on('bo_test_b', (p) => heard.push(p));
      await waitFor(() => listener.listening, 5_000, 'listening');
      const [pid] = await listenerBackends();
      expect(pid).toBeTypeOf('number');
      heard.length = 0;
      await other.query('SELECT pg_terminate_backend($1)', [pid]);
      await waitFor(() => !listener.listening, 5_000, 'listening to go false');
      // it says "look again" once it is back, since what was sent meanwhile was not heard
      await waitFor(() => listener.listening && heard.includes(''), 10_000, 'the reconnection');
      const after = await listenerBackends();
      expect(after).toHaveLength(1);
      expect(after[0]).not.toBe(pid);
      await other.query(`NOTIFY bo_test_b, 'after'`);
      await waitFor(() => heard.includes('after'), 5_000, 'the notification after the reconnection');
    } finally {
      await listener.close();
    }
    await waitFor(async () => (await listenerBackends()).length === 0, 5_000, 'the connection to close');
  });

  it('a connection that stops answering without closing is dropped by the health check, and the listener comes back', async () => {
    const relay = await silentRelay();
    const listener = createNotificationListener({
      connectionString: relay.url,
      embedded: false,
      reconnectMinMs: 50,
      healthCheckMs: 100,
      healthTimeoutMs: 300,
    });
    try {
      const heard: string[] = [];
      listener.on('bo_test_f', (p) => heard.push(p));
      await waitFor(() => listener.listening, 5_000, 'listening');
      relay.silent(true);
      await waitFor(() => !listener.listening, 5_000, 'the silent connection to be dropped');
      relay.silent(false);
      await waitFor(() => listener.listening, 5_000, 'listening again');
      await other.query(`NOTIFY bo_test_f, 'back'`);
      await waitFor(() => heard.includes('back'), 5_000, 'the notification after the reconnection');
    } finally {
      await listener.close();
      await relay.close();
    }
  });

  it('handles in one process share one connection, which closes with the last handle', async () => {
    const pool = poolConfig(url, { embedded: false, idleTimeoutMs: 10_000 });
    const a = createNotificationListener({ pool });
    const b = createNotificationListener({ connectionString: url });
    const heardA: string[] = [];
    const heardB: string[] = [];
    a.on('bo_test_c', (p) => heardA.push(p));
    b.on('bo_test_d', (p) => heardB.push(p));
    await waitFor(() => a.listening && b.listening, 5_000, 'listening');
    expect(await listenerBackends()).toHaveLength(1);
    await other.query(`NOTIFY bo_test_c, 'c'`);
    await other.query(`NOTIFY bo_test_d, 'd'`);
    await waitFor(() => heardA.includes('c') && heardB.includes('d'), 5_000, 'both channels');
    expect(heardA).not.toContain('d');
    await a.close();
    expect(a.listening).toBe(false);
    expect(b.listening).toBe(true);
    await other.query(`NOTIFY bo_test_d, 'still'`);
    await waitFor(() => heardB.includes('still'), 5_000, 'b after a closed');
    await b.close();
    await waitFor(async () => (await listenerBackends()).length === 0, 5_000, 'the connection to close');
  });

  it('on the embedded database no listening connection is started and callers are told to poll', async () => {
    // pool settings as poolConfig() gives them for the embedded database (here pointing at the server, to see that nothing connects)
    const listener = createNotificationListener({ pool: poolConfig(url, { embedded: true, idleTimeoutMs: 10_000 }) });
    listener.on('bo_test_e', () => {});
    await new Promise((r) => setTimeout(r, 300));
    expect(listener.listening).toBe(false);
    expect(await listenerBackends()).toEqual([]);
    await listener.close();
  });

  it('channel names that are not identifiers of ours are refused', async () => {
    const listener = createNotificationListener({ connectionString: url, embedded: true });
    for (const bad of ['', 'Upper', 'a-b', 'x; DROP TABLE event', '"q"', 'a'.repeat(64)]) {
      expect(() => listener.on(bad, () => {}), bad).toThrow(/not a notification channel name/);
    }
    await listener.close();
  });
});
