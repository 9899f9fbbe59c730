import { loadavg } from 'node:os';
import { type RunningDirectus, startDirectus } from './peer/directus.js';
import { installPeer, type PeerInstall } from './peer/install.js';
import { combineRounds, type LoadResult, load } from './support/load.js';
import { type BenchService, insertOrganizations, startBenchService } from './support/service.js';
import { call } from './support/setup.js';
import { record } from './support/summary.js';

/**
 * `pnpm bench peer` (issue 15, "A real peer beside us"): the read path beside Directus 11, a
 * generic REST-over-PostgreSQL server, on the same 10,000 organization rows of one database:
 * the first page, a prefix filter with a count, and a change-tracking query, at 10 connections,
 * with rounds interleaved (ours, peer, peer, ours, ...) so that drift in the machine's load falls
 * on both. Ours over HTTPS with the full reference shape, Directus over plain HTTP with flat rows.
 *
 * Knobs: BENCH_PEER_ROWS (10000), BENCH_PEER_ROUNDS (3), BENCH_PEER_SECONDS (5 per measurement),
 * BENCH_PEER_WARMUP (2 s per side and workload), BENCH_PEER_CONNECTIONS (10),
 * BENCH_PEER_PREFIX ("Org 0000", 999 of 10,000 names), BENCH_PEER_CHANGED (500 rows newer than the
 * change-tracking timestamp). The install of the peer is in bench/peer/install.ts.
 */

const ROWS = Number(process.env.BENCH_PEER_ROWS ?? 10_000);
const ROUNDS = Number(process.env.BENCH_PEER_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_PEER_SECONDS ?? 5);
const WARMUP = Number(process.env.BENCH_PEER_WARMUP ?? 2);
const CONNECTIONS = Number(process.env.BENCH_PEER_CONNECTIONS ?? 10);
const PREFIX = process.env.BENCH_PEER_PREFIX ?? 'Org 0000';
const CHANGED = Number(process.env.BENCH_PEER_CHANGED ?? 500);
const TARGET = 1.5;

interface Side {
  url: string;
  headers: Record<string, string>;
}

interface Workload {
  name: string;
  ours: Side;
  peer: Side;
}

const loadText = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

function skip(reason: string): void {
  console.log(`\npeer: NOT RUN. ${reason}`);
  console.log('peer: the benchmark ends here without figures (it never fails the runner).');
  record({ benchmark: 'peer', figure: 'beside Directus 11', value: `not run: ${reason.split('\n')[0]?.slice(0, 120)}` });
}

function qs(params: Record<string, string>): string {
  return Object.entries(params)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
    .join('&');
}

/** `YYYY-MM-DD HH:MM:SS` in UTC, the contract's date-time format */
function contractDateTime(d: Date): string {
  return d.toISOString().slice(0, 19).replace('T', ' ');
}

interface OursPage {
  data: { id: string }[];
  metadata?: { count?: number };
}
interface PeerPage {
  data: { id: string }[];
  meta?: { filter_count?: number };
}

async function getOurs(bench: BenchService, side: Side): Promise<OursPage> {
  const u = new URL(side.url);
  const r = await call(bench.service.port, side.headers.host ?? '', side.headers, 'GET', `${u.pathname}${u.search}`);
  if (r.status !== 200) throw new Error(`ours ${u.pathname}${u.search} answered ${r.status}: ${JSON.stringify(r.body)}`);
  return r.body as OursPage;
}

async function getPeer(side: Side): Promise<PeerPage> {
  const r = await fetch(side.url, { headers: side.headers });
  if (r.status !== 200) throw new Error(`Directus ${side.url} answered ${r.status}: ${await r.text()}`);
  return (await r.json()) as PeerPage;
}

/** Both sides answer the same question before anything is measured: same rows (by id, in order where sorted) and same count. */
async function checkSameAnswers(
  bench: BenchService,
  w: { page: Workload; prefix: Workload; changes: Workload },
  expected: { prefixCount: number; changed: number },
): Promise<void> {
  const ids = (p: { data: { id: string }[] }) => p.data.map((r) => r.id);
  const same = (a: string[], b: string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

  const [op, pp] = [await getOurs(bench, w.page.ours), await getPeer(w.page.peer)];
  if (op.data.length !== Math.min(100, ROWS) || pp.data.length !== op.data.length) {
    throw new Error(`first page: ours ${op.data.length} rows, Directus ${pp.data.length}, expected ${Math.min(100, ROWS)}`);
  }

  const [of, pf] = [await getOurs(bench, w.prefix.ours), await getPeer(w.prefix.peer)];
  const oursCount = of.metadata?.count;
  const peerCount = pf.meta?.filter_count === undefined ? undefined : Number(pf.meta.filter_count);
  if (oursCount !== expected.prefixCount || peerCount !== expected.prefixCount) {
    throw new Error(`prefix filter: count ours ${oursCount}, Directus ${peerCount}, expected ${expected.prefixCount}`);
  }
  if (!same(ids(of), ids(pf)) || of.data.length !== Math.min(100, expected.prefixCount)) {
    throw new Error(`prefix filter: the pages differ (ours ${of.data.length} rows, Directus ${pf.data.length})`);
  }

  const [oc, pc] = [await getOurs(bench, w.changes.ours), await getPeer(w.changes.peer)];
  if (!same(ids(oc), ids(pc)) || oc.data.length !== Math.min(100, expected.changed)) {
    throw new Error(`change tracking: the pages differ (ours ${oc.data.length} rows, Directus ${pc.data.length})`);
  }
  console.log(
    `same answers: first page ${op.data.length} rows each; prefix "${PREFIX}" ${of.data.length} rows and count ${expected.prefixCount} each; ` +
      `change tracking ${oc.data.length} rows each, same ids in the same order`,
  );
}

function line(label: string, r: LoadResult) {
  const rps = r.requestsPerSecond;
  const bad = r.non2xx || r.errors ? `   non-2xx ${r.non2xx} errors ${r.errors} (figure not valid)` : '';
  return `  ${label.padEnd(36)} ${rps.toFixed(0).padStart(7)} req/s   p50 ${r.p50.toFixed(0).padStart(4)} ms   p99 ${r.p99.toFixed(0).padStart(4)} ms${bad}`;
}

export default async function run(): Promise<void> {
  let install: PeerInstall;
  try {
    install = await installPeer();
  } catch (e) {
    skip(`The peer could not be installed: ${(e as Error).message}`);
    return;
  }

  const bench = await startBenchService();
  let directus: RunningDirectus | undefined;
  try {
    const env = await bench.environment('bench');
    await insertOrganizations(bench.pool, env.id, ROWS);
    // both read the same rows: Directus serves our organization table from the same database
    try {
      directus = await startDirectus(install, bench.url);
      await directus.registerCollection('organization');
    } catch (e) {
      skip(`Directus did not start against the benchmark database: ${(e as Error).message}`);
      return;
    }

    const prefixCount = Number(
      (
        await bench.pool.query<{ n: string }>('SELECT count(*) AS n FROM organization WHERE lower(name) LIKE lower($1) || $2', [
          PREFIX.replace(/[\\%_]/g, '\\$&'),
          '%',
        ])
      ).rows[0]?.n,
    );
    // a whole second, CHANGED rows back from the newest: both sides read the same instant (UTC)
    const since = (
      await bench.pool.query<{ t: Date }>(
        `SELECT date_trunc('second', max(updated_at)) - make_interval(secs => $1) AS t FROM organization`,
        [CHANGED],
      )
    ).rows[0]?.t as Date;
    const changed = Number(
      (await bench.pool.query<{ n: string }>('SELECT count(*) AS n FROM organization WHERE updated_at >= $1', [since])).rows[0]
        ?.n,
    );

    const oursBase = `https://127.0.0.1:${bench.service.port}/api/v2/crm/organization`;
    const oursHeaders = { ...env.v2, host: env.host };
    const peerBase = `${directus.url}/items/organization`;
    const peerHeaders = { authorization: `Bearer ${directus.token}` };
    const page: Workload = {
      name: 'first page',
      ours: { url: `${oursBase}?${qs({ limit: '100' })}`, headers: oursHeaders },
      peer: { url: `${peerBase}?${qs({ limit: '100' })}`, headers: peerHeaders },
    };
    const prefix: Workload = {
      name: 'prefix filter with count',
      ours: {
        url: `${oursBase}?${qs({ 'q[name]': `${PREFIX}*`, metadata: 'count', sort: 'name', limit: '100' })}`,
        headers: oursHeaders,
      },
      peer: {
        url: `${peerBase}?${qs({ 'filter[name][_istarts_with]': PREFIX, meta: 'filter_count', sort: 'name', limit: '100' })}`,
        headers: peerHeaders,
      },
    };
    const changes: Workload = {
      name: 'change tracking',
      ours: {
        url: `${oursBase}?${qs({ 'q[updated_at][ge]': contractDateTime(since), sort: '-updated_at', limit: '100' })}`,
        headers: oursHeaders,
      },
      peer: {
        url: `${peerBase}?${qs({ 'filter[updated_at][_gte]': since.toISOString(), sort: '-updated_at', limit: '100' })}`,
        headers: peerHeaders,
      },
    };
    const workloads = [page, prefix, changes];

    try {
      await checkSameAnswers(bench, { page, prefix, changes }, { prefixCount, changed });
    } catch (e) {
      skip(`The two sides do not answer the same question, so nothing is compared: ${(e as Error).message}`);
      return;
    }

    const measure = (side: Side, seconds: number) =>
      load({ url: side.url, headers: side.headers, connections: CONNECTIONS, seconds });

    if (WARMUP > 0) {
      for (const w of workloads) {
        await measure(w.ours, WARMUP);
        await measure(w.peer, WARMUP);
      }
    }

    console.log(
      `\n${ROWS.toLocaleString('en')} organizations, ${CONNECTIONS} connections, ${ROUNDS} interleaved rounds of ${SECONDS} s per side and workload` +
        `\nours: Node ${process.versions.node}, HTTPS, v2 with the full reference shape; Directus ${install.directusVersion}: Node ${install.nodeVersion}, plain HTTP, flat rows`,
    );
    const results = new Map<Workload, { ours: LoadResult[]; peer: LoadResult[] }>(
      workloads.map((w) => [w, { ours: [], peer: [] }]),
    );
    for (let round = 1; round <= ROUNDS; round++) {
      console.log(`round ${round}/${ROUNDS}   load average ${loadText()}`);
      for (const w of workloads) {
        const r = results.get(w)!;
        // who goes first alternates by round, so neither side always follows the other's load
        const order = round % 2 ? (['ours', 'peer'] as const) : (['peer', 'ours'] as const);
        for (const who of order) {
          const res = await measure(w[who], SECONDS);
          r[who].push(res);
          console.log(line(`${w.name}, ${who === 'ours' ? 'ours' : 'Directus'}`, res));
        }
      }
    }

    console.log(
      `\nper workload: req/s the mean of the rounds, p50/p99 the median of the rounds   (load average now ${loadText()})`,
    );
    for (const w of workloads) {
      const r = results.get(w)!;
      const ours = combineRounds(r.ours);
      const peer = combineRounds(r.peer);
      const ratio = ours.requestsPerSecond / peer.requestsPerSecond;
      const p99Ratio = ours.p99 / Math.max(peer.p99, 1);
      const valid = !(ours.non2xx || ours.errors || peer.non2xx || peer.errors);
      console.log(`${w.name}`);
      console.log(line('ours', ours));
      console.log(line('Directus', peer));
      console.log(
        `  ours / Directus: req/s ${ratio.toFixed(2)} (target >= ${TARGET}), p99 ${p99Ratio.toFixed(2)} (target <= 1.00: no worse)${valid ? '' : '   NOT VALID: some replies failed'}`,
      );
      const note = valid ? '' : ' (some replies failed: not valid)';
      record({
        benchmark: 'peer',
        figure: `${w.name} beside Directus 11, req/s, ${CONNECTIONS} connections`,
        value: `${ours.requestsPerSecond.toFixed(0)} req/s, p99 ${ours.p99.toFixed(0)} ms${note}`,
        baseline: `Directus ${peer.requestsPerSecond.toFixed(0)} req/s, p99 ${peer.p99.toFixed(0)} ms`,
        ratio,
        atLeast: TARGET,
      });
      record({
        benchmark: 'peer',
        figure: `${w.name} beside Directus 11, p99`,
        value: `${ours.p99.toFixed(0)} ms${note}`,
        baseline: `Directus ${peer.p99.toFixed(0)} ms`,
        ratio: p99Ratio,
        atMost: 1,
      });
    }
  } finally {
    await directus?.stop();
    // drops the database: ours and Directus's system tables with it
    await bench.stop();
  }
}
