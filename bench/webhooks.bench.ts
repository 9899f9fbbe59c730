import { fork } from 'node:child_process';
import { Agent, request as httpRequest } from 'node:http';
import { loadavg } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { LISTENER_APPLICATION_NAME } from '@bo/db';
import { fileURLToPath } from 'node:url';
import { startServerProcess } from './support/server-process.js';
import { call, createBenchDatabase, createToken, percentile } from './support/setup.js';
import { record } from './support/summary.js';

/**
 * (b) 1,000 changes through v2 with one loopback subscriber: events/s and
 * p50/p99 from commit (the v2 answer) to receipt, at 100 changes/s and as fast
 * as the API takes them; beside the receiver's raw rate (signed-size POSTs
 * sent to it directly: one connection each, and over one kept-alive connection,
 * which is how the worker sends them now).
 *
 * The service (API and its in-process worker) runs in a child process, and so
 * does the receiver, so that neither shares the load generator's event loop. It
 * runs with the shipped webhook settings: the worker wakes on the outbox's
 * notifications (LISTEN/NOTIFY) and polls only as the fallback; the run checks
 * that the listener is connected.
 *
 * BENCH_WEBHOOK_CHANGES (default 1000) and BENCH_WEBHOOK_RATE (default 100
 * changes/s) make it smaller or harder.
 */
const CHANGES = Number(process.env.BENCH_WEBHOOK_CHANGES ?? 1000);
const RATE = Number(process.env.BENCH_WEBHOOK_RATE ?? 100);
const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

export default async function webhooksBench(): Promise<void> {
  const db = await createBenchDatabase();
  const receipts = new Map<string, number>();
  // the subscriber runs in its own process; receipts come back over IPC
  const receiver = fork(path.join(path.dirname(fileURLToPath(import.meta.url)), 'support/receiver-process.ts'), [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const rport = await new Promise<number>((resolve) => {
    receiver.on('message', (m: { port?: number; id?: string; at?: number }) => {
      if (m.port) resolve(m.port);
      // the receiver's clock: timeOrigin + now, turned into this process's performance.now()
      else if (m.id && m.at !== undefined && !receipts.has(m.id)) receipts.set(m.id, m.at - performance.timeOrigin);
    });
  });
  const service = await startServerProcess(
    db.url,
    db.dataDir,
    // the shipped webhook settings otherwise (listening on, the fallback polls at their defaults)
    { RUN_WORKER: 'true', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' },
    process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [],
  );
  try {
    // the shipped path: the worker hears the outbox's notifications
    const check = new pg.Client({ connectionString: db.url });
    await check.connect();
    let listening = false;
    for (let i = 0; i < 100 && !listening; i += 1) {
      const r = await check.query(
        `SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1 AND query LIKE 'LISTEN%'`,
        [LISTENER_APPLICATION_NAME],
      );
      listening = (r.rowCount ?? 0) > 0;
      if (!listening) await new Promise((r) => setTimeout(r, 50));
    }
    await check.end();
    if (!listening) throw new Error('the worker holds no LISTEN connection: this would measure the fallback poll');
    const token = await createToken(db.url, 'bench');
    const host = 'bench.localhost';
    const v2 = { 'authentication-key': token.key, 'authentication-secret': token.secret };
    const v3 = { authorization: `Bearer ${token.key}:${token.secret}` };
    const sub = await call(service.port, host, v3, 'POST', '/api/v3/webhook.create', {
      url: `http://127.0.0.1:${rport}/hook`,
      events: ['organization.created'],
    });
    if (sub.status !== 201) throw new Error(`webhook.create: ${sub.status}`);
    // one delivery through before measuring: the jobs process (its own on a server) has started and listens
    const warm = await call(service.port, host, v2, 'POST', '/api/v2/crm/organization', { name: 'warm-up' });
    const warmId = (warm.body as { data: { id: string } }).data.id;
    for (let i = 0; i < 1200 && !receipts.has(warmId); i += 1) await new Promise((r) => setTimeout(r, 50));
    if (!receipts.has(warmId)) throw new Error('the warm-up change was never delivered');
    receipts.clear();

    // baseline: the receiver's raw rate for the same kind of request
    const sample = JSON.stringify({
      id: 'x',
      type: 'organization.created',
      occurredAt: new Date().toISOString(),
      environment: 'bench',
      data: { id: 'baseline', name: 'x'.repeat(600) },
    });
    const rawRun = async (agent: false | Agent) => {
      const rawStart = performance.now();
      for (let i = 0; i < CHANGES; i += 1) {
        await new Promise<void>((resolve, reject) => {
          const req = httpRequest(
            {
              host: '127.0.0.1',
              port: rport,
              method: 'POST',
              path: '/hook',
              agent,
              headers: { 'content-type': 'application/json' },
            },
            (res) => {
              res.resume();
              res.on('end', resolve);
            },
          );
          req.on('error', reject);
          req.end(sample);
        });
      }
      return CHANGES / ((performance.now() - rawStart) / 1000);
    };
    const rawRate = await rawRun(false);
    const keepAlive = new Agent({ keepAlive: true, maxSockets: 1 });
    const rawKeepAliveRate = await rawRun(keepAlive);
    keepAlive.destroy();
    receipts.clear();

    const run = async (label: string, perSecond: number | null) => {
      console.log(`  (load average ${load()})`);
      const commits = new Map<string, number>();
      const t0 = performance.now();
      const inFlight = new Set<Promise<void>>();
      for (let i = 0; i < CHANGES; i += 1) {
        if (perSecond) {
          const due = t0 + (i * 1000) / perSecond;
          const wait = due - performance.now();
          if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        }
        const p = call(service.port, host, v2, 'POST', '/api/v2/crm/organization', { name: `${label} ${i}` }).then((res) => {
          if (res.status !== 200) throw new Error(`create: ${res.status}`);
          commits.set((res.body as { data: { id: string } }).data.id, performance.now());
        });
        const tracked = p.finally(() => inFlight.delete(tracked));
        inFlight.add(tracked);
        if (inFlight.size >= 8) await Promise.race(inFlight);
      }
      await Promise.all(inFlight);
      const commitRate = CHANGES / ((performance.now() - t0) / 1000);
      const deadline = Date.now() + 120_000;
      while ([...commits.keys()].some((id) => !receipts.has(id)) && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 20));
      const latencies = [...commits].map(([id, at]) => (receipts.get(id) ?? Number.NaN) - at).sort((a, b) => a - b);
      const lastReceipt = Math.max(...[...commits.keys()].map((id) => receipts.get(id) ?? 0));
      const rate = CHANGES / ((lastReceipt - t0) / 1000);
      const missing = latencies.filter((l) => Number.isNaN(l)).length;
      // the worker alone: what it delivered after the API's last answer, and how fast
      const createsEnded = t0 + (CHANGES / commitRate) * 1000;
      const after = [...commits.keys()].map((id) => receipts.get(id) ?? 0).filter((at) => at > createsEnded);
      if (after.length > 1) {
        const aloneRate = after.length / ((Math.max(...after) - createsEnded) / 1000);
        console.log(`  ${''.padEnd(22)} of which ${after.length} after the last create, at ${aloneRate.toFixed(0)} events/s`);
      }
      console.log(
        `  ${label.padEnd(22)} ${rate.toFixed(0).padStart(5)} events/s (${(rate / rawRate).toFixed(3)} of raw, ${(rate / rawKeepAliveRate).toFixed(3)} of raw kept-alive)  commit→receipt p50 ${percentile(latencies, 50).toFixed(0)} ms  p99 ${percentile(latencies, 99).toFixed(0)} ms  (API took ${commitRate.toFixed(0)} changes/s)${missing ? `  MISSING ${missing}` : ''}`,
      );
      return { p99: percentile(latencies, 99), rate, commitRate, missing };
    };

    console.log(
      `${CHANGES} organization creates through v2, one loopback subscriber (service and receiver each in a child process); worker listening`,
    );
    console.log(
      `  receiver raw rate      ${rawRate.toFixed(0).padStart(5)} requests/s (sequential POSTs, a new connection each)`,
    );
    console.log(
      `  receiver raw rate      ${rawKeepAliveRate.toFixed(0).padStart(5)} requests/s (sequential POSTs, one kept-alive connection)`,
    );
    const paced = await run(`at ${RATE} changes/s`, RATE);
    const fast = await run('as fast as possible', null);
    const p99 = paced.p99;
    console.log(`  target p99 < 250 ms at ${RATE} changes/s (issue 15): ${p99 < 250 ? 'OK' : 'MISSED'}`);
    console.log(
      `  as fast as possible: ${fast.rate.toFixed(0)} events/s delivered while the API took ${fast.commitRate.toFixed(0)} creates/s = ${(fast.rate / fast.commitRate).toFixed(2)}`,
    );
    record({
      benchmark: 'webhooks',
      figure: `commit → receipt p99 at ${RATE} changes/s, against the 250 ms target`,
      value: `${p99.toFixed(0)} ms${paced.missing ? ` (${paced.missing} missing)` : ''}`,
      baseline: '250 ms',
      ratio: paced.missing ? null : p99 / 250,
      atMost: 1,
    });
    // delivery keeps up with the writes: events delivered per second (first create to last receipt)
    // against the creates per second the API took in the same run
    record({
      benchmark: 'webhooks',
      figure: 'delivery as fast as possible: events/s against the API’s creates/s',
      value: `${fast.rate.toFixed(0)} events/s${fast.missing ? ` (${fast.missing} missing)` : ''}`,
      baseline: `${fast.commitRate.toFixed(0)} creates/s`,
      ratio: fast.missing ? null : fast.rate / fast.commitRate,
      atLeast: 0.9,
    });
  } finally {
    await service.stop();
    const gone = new Promise((r) => receiver.once('exit', r));
    receiver.disconnect();
    await gone;
    await db.drop();
  }
}
