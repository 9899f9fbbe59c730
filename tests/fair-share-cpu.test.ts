import { Worker } from 'node:worker_threads';
import { CHECK_EVERY_PAGE_ITEM } from '@bo/domain/shared/entity/entity-router';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, startTestService, type TestService } from './support/service.js';

/**
 * The fair share between environments covers the service's CPU, not only its database
 * connections (issue 31): one environment's heavy reads do not raise another environment's
 * p99 above 2× its quiet value. Two parts hold it: a bounded number of requests of one
 * environment worked on at once (RequestShare), and turns within a request: an environment with
 * requests waiting on a shared process lets the event loop run other work between slices of a
 * page (jsonItemsInTurns), so another environment's read waits for a slice, not a page.
 * Measured: 16.7× with neither, 2.2–2.6× with the first alone, 1.3–1.6× with both.
 *
 * Environment `heavy` floods the service with cheap, valid reads (the v2 first page of 100
 * organizations) on FLOOD_CONNECTIONS kept-alive connections, each sending its next request as
 * soon as the last is answered (the rate limit is off in the tests: the point is CPU, not 429s).
 * Environment `quiet` reads the same page, one request at a time. The two clients run in worker
 * threads of their own, so the service's event loop (this thread) carries only the service.
 * Phases alternate, quiet (the flood idle) and busy (the flood running), in turned order; each
 * busy phase's p99 is divided by that of the quiet phase beside it, and the median of those ratios
 * is compared, so that neither one noisy phase nor a drift of the shared machine's speed decides.
 * (The ratio of the two kinds' medians, compared before, took a quiet median from a fast stretch and
 * a busy one from a slow stretch of one run: 2.12 for v3, a path untouched that day, where the pairs
 * gave 1.63; it is still printed.)
 */
const FLOOD_CONNECTIONS = 32;
/** the ratio of the quiet environment's p99, busy over quiet, that fails the test (the target) */
const BOUND = 2;
/**
 * phases of each kind (pairs). 9, not 7: on a slow, noisy day (2026-11-27,
 * every side at half speed) one in eight runs of v3, a path this session did not change, measured 2.1–2.2×
 * with 7 while its median over runs was 1.6×; the bound stays 2×
 */
const PHASES = 9;
/**
 * reads of the quiet environment per phase: p99 of 500 is the fifth longest. 500, not 200 (the
 * second longest): stalls of 20-90 ms that neither the flood nor the service's GC explains come now
 * and then in quiet and busy phases alike on these shared machines, and one of them decided a phase
 */
const READS = 500;
/** a busy phase ends after this long even if its reads are not all done (without the fair share a read took ~100 ms) */
const PHASE_MAX_MS = 8_000;
/**
 * a quiet phase reads all of its READS, one at a time, however slow the machine: on one slow day
 * (2026-11-28) v2's quiet reads took ~16 ms each and the busy phases' limit cut a quiet phase at 490
 * of 500, which failed the count without saying anything about fairness. Its limit only stops a hang.
 */
const QUIET_PHASE_MAX_MS = 60_000;
const ORGANIZATIONS = 150;
/** the same page through each door that answers lists: v2's 100, v3's largest (30) */
const DOORS = [
  { door: 'v2', page: '/api/v2/crm/organization?limit=100', minBytes: 10_000 },
  { door: 'v3', page: '/api/v3/organization.list?itemsPerPage=30', minBytes: 3_000 },
] as const;
type Door = (typeof DOORS)[number];

let t: TestService;
let heavy: ApiClient;
let quiet: ApiClient;

/** A client in a worker thread: `flood` (many connections until told to stop) or `reads` (one at a time). */
const CLIENT = `
const { parentPort, workerData } = require('node:worker_threads');
const https = require('node:https');
const { port, host, key, secret, door, path, connections } = workerData;
const agent = new https.Agent({ keepAlive: true, maxSockets: connections, rejectUnauthorized: false });
const headers = door === 'v2'
  ? { host, 'authentication-key': key, 'authentication-secret': secret }
  : { host, authorization: 'Bearer ' + key + ':' + secret };
function get() {
  return new Promise((resolve) => {
    const started = performance.now();
    const req = https.request({ host: '127.0.0.1', port, path, agent, headers, rejectUnauthorized: false }, (res) => {
      let bytes = 0;
      res.on('data', (c) => { bytes += c.length; });
      res.on('end', () => resolve({ status: res.statusCode, ms: performance.now() - started, bytes }));
    });
    req.on('error', () => resolve({ status: 0, ms: performance.now() - started, bytes: 0 }));
    req.end();
  });
}
let stopping = false;
parentPort.on('message', async (msg) => {
  if (msg.kind === 'flood') {
    stopping = false;
    const statuses = {};
    const started = performance.now();
    await Promise.all(Array.from({ length: connections }, async () => {
      while (!stopping) {
        const r = await get();
        statuses[r.status] = (statuses[r.status] || 0) + 1;
      }
    }));
    parentPort.postMessage({ kind: 'flooded', statuses, seconds: (performance.now() - started) / 1000 });
  } else if (msg.kind === 'stop') {
    stopping = true;
  } else if (msg.kind === 'reads') {
    const ms = [];
    const statuses = {};
    let bytes = 0;
    const until = performance.now() + msg.maxMs;
    while (ms.length < msg.count && performance.now() < until) {
      const r = await get();
      statuses[r.status] = (statuses[r.status] || 0) + 1;
      bytes = r.bytes;
      ms.push(r.ms);
    }
    parentPort.postMessage({ kind: 'read', ms, statuses, bytes });
  } else if (msg.kind === 'close') {
    agent.destroy();
    parentPort.close();
  }
});
`;

interface Client {
  worker: Worker;
  ask<T>(msg: object, answer: string): Promise<T>;
}

function client(api: ApiClient, door: Door, connections: number): Client {
  const worker = new Worker(CLIENT, {
    eval: true,
    workerData: {
      port: t.service.port,
      host: api.host,
      key: api.token?.key,
      secret: api.token?.secret,
      door: door.door,
      path: door.page,
      connections,
    },
  });
  return {
    worker,
    ask<T>(msg: object, answer: string) {
      return new Promise<T>((resolve, reject) => {
        const onMessage = (m: { kind: string }) => {
          if (m.kind !== answer) return;
          worker.off('message', onMessage);
          worker.off('error', reject);
          resolve(m as T);
        };
        worker.on('message', onMessage);
        worker.once('error', reject);
        worker.postMessage(msg);
      });
    },
  };
}

interface Reads {
  ms: number[];
  statuses: Record<string, number>;
  bytes: number;
}
interface Flooded {
  statuses: Record<string, number>;
  seconds: number;
}

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(sorted.length * q) - 1))] ?? 0;
}
const p99 = (values: number[]) => quantile(values, 0.99);
const median = (values: number[]) => quantile(values, 0.5);

beforeAll(async () => {
  // the service as it runs in production: each page's first item checked, not every item (vitest.config.ts)
  expect(CHECK_EVERY_PAGE_ITEM).toBe(false);
  t = await startTestService();
  heavy = await t.environment('heavy');
  quiet = await t.environment('quiet');
  for (const name of ['heavy', 'quiet']) {
    const [env] = await t.db.query<{ id: string }>('SELECT id FROM environment WHERE name = $1', [name]);
    await t.db.query(
      `INSERT INTO organization (id, environment_id, name, relation_number, is_active, created_at, updated_at)
       SELECT 'organization:' || md5($1 || ':' || i), $1, 'Org ' || i, 'R-' || i, true, now(), now()
         FROM generate_series(1, $2::int) AS i`,
      [env?.id, ORGANIZATIONS],
    );
  }
  await t.db.query('ANALYZE organization');
}, 120_000);

afterAll(async () => {
  await t?.stop();
});

describe.each(DOORS)('the fair share between environments covers CPU time ($door)', (door) => {
  it(`one environment's heavy reads do not raise another environment's p99 above ${BOUND}× its quiet value`, async () => {
    const flood = client(heavy, door, FLOOD_CONNECTIONS);
    const reader = client(quiet, door, 1);
    const floodFor = async (during: () => Promise<void>): Promise<Flooded> => {
      const done = flood.ask<Flooded>({ kind: 'flood' }, 'flooded');
      // let every connection open and the flood reach its pace
      await new Promise((r) => setTimeout(r, 300));
      await during();
      flood.worker.postMessage({ kind: 'stop' });
      return done;
    };
    const reads = (count: number, maxMs = PHASE_MAX_MS) => reader.ask<Reads>({ kind: 'reads', count, maxMs }, 'read');
    try {
      // warm-up: both environments' pages, tokens and plans, both sides' connections, the code's compilation
      const warm = await reads(200);
      expect(warm.statuses).toEqual({ 200: 200 });
      expect(warm.bytes).toBeGreaterThan(door.minBytes);
      for (let i = 0; i < 2; i += 1) {
        await floodFor(async () => {
          await reads(100);
        });
      }

      const quietP99: number[] = [];
      const busyP99: number[] = [];
      const floods: Flooded[] = [];
      const busyCounts: number[] = [];
      const quietPhase = async () => {
        const r = await reads(READS, QUIET_PHASE_MAX_MS);
        expect(r.statuses).toEqual({ 200: READS });
        quietP99.push(p99(r.ms));
      };
      const busyPhase = async () => {
        let r: Reads | undefined;
        floods.push(
          await floodFor(async () => {
            r = await reads(READS);
          }),
        );
        if (!r) throw new Error('no reads');
        expect(Object.keys(r.statuses)).toEqual(['200']);
        busyCounts.push(r.ms.length);
        busyP99.push(p99(r.ms));
      };
      for (let phase = 0; phase < PHASES; phase += 1) {
        // turned order: quiet then busy, then busy then quiet, so that a drift of the machine weighs on both
        if (phase % 2 === 0) {
          await quietPhase();
          await busyPhase();
        } else {
          await busyPhase();
          await quietPhase();
        }
      }
      const floodRate = floods.map((f) => Object.values(f.statuses).reduce((a, b) => a + b, 0) / f.seconds);
      const floodStatuses = floods.reduce<Record<string, number>>((all, f) => {
        for (const [s, n] of Object.entries(f.statuses)) all[s] = (all[s] ?? 0) + n;
        return all;
      }, {});
      const q = median(quietP99);
      const b = median(busyP99);
      // the busy phase and the quiet phase of one pair ran one after the other
      const paired = median(busyP99.map((v, i) => v / (quietP99[i] as number)));
      console.log(
        `[fair share, CPU, ${door.door}] quiet environment's p99 per phase: quiet ${quietP99.map((v) => v.toFixed(1)).join(', ')} ms; ` +
          `busy ${busyP99.map((v) => v.toFixed(1)).join(', ')} ms (reads ${busyCounts.join(', ')}); ` +
          `medians quiet ${q.toFixed(1)} ms, busy ${b.toFixed(1)} ms, ratio ${(b / q).toFixed(2)}; median of the pairs' ratios ${paired.toFixed(2)}; ` +
          `heavy environment ${FLOOD_CONNECTIONS} connections: ${floodRate.map((r) => r.toFixed(0)).join(', ')} req/s, answers ${JSON.stringify(floodStatuses)}`,
      );
      // the flood was real: the heavy environment's reads were served, not refused
      expect(floodStatuses['200'] ?? 0).toBeGreaterThan(0.9 * Object.values(floodStatuses).reduce((a, c) => a + c, 0));
      expect(paired).toBeLessThanOrEqual(BOUND);
    } finally {
      await Promise.all([flood.worker.terminate(), reader.worker.terminate()]);
    }
    // 9 phases of each kind: on the slow day above, v2's took 150 s in all
  }, 360_000);
});
