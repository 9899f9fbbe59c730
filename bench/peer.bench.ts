import { mkdirSync } from 'node:fs';
import { createPeerDatabase, type PeerDatabase } from './peer/database.js';
import { type RunningDirectus, startDirectus } from './peer/directus.js';
import { installPeer, type PeerInstall } from './peer/install.js';
import { processCpuMicros, type SideProcess, startBaselineProcess, startServiceProcess } from './peer/sides.js';
import { organizationBaselineSql } from './support/baseline.js';
import { combineRounds, type LoadResult, load } from './support/load.js';
import { insertOrganizations, startBenchService } from './support/service.js';
import { call } from './support/setup.js';
import { loadAverage, record } from './support/summary.js';

/**
 * `pnpm bench peer` (issue 31): four reads of 10,000 organizations, each with its visiting
 * address, measured on four sides in interleaved rounds (the order turns every round):
 *
 * - ours: v2 over HTTPS, with authentication, rate limit, rights and the output check on, in the
 *   reference's full shape, started as `pnpm start` starts it (the compiled bundle) in a process
 *   of its own (bench/peer/sides.ts);
 * - Directus, set up as its documentation advises for production (bench/peer/directus.ts) on a
 *   database of its own holding only its collection and the same rows, with the indexes its
 *   queries can use (bench/peer/database.ts); plain HTTP, its admin token (no permission rules);
 * - the lean baseline: plain pg + node:https in a process of its own, one statement per request, the
 *   rows and their address only, `JSON.stringify`, no authentication;
 * - the same-data baseline: the same, with the statement the other read benchmarks use (the row,
 *   its lookups' names, its addresses), and the count as a second statement where one is asked.
 *
 * Reads: the first page of 100 (creation order), a prefix filter sorted by name with the count,
 * change tracking (`updated_at ≥`, newest first), and one record by id. Before anything is
 * measured every side must answer the same rows (ids, in order) and the same count.
 *
 * Knobs: BENCH_PEER_ROWS (10000), BENCH_PEER_ROUNDS (3), BENCH_PEER_SECONDS (15 per side, read
 * and round), BENCH_PEER_WARMUP (2), BENCH_PEER_CONNECTIONS (10), BENCH_PEER_PREFIX ("Org 0000",
 * 999 names), BENCH_PEER_CHANGED (500 rows newer than the change-tracking timestamp),
 * BENCH_PEER_SIDES (e.g. "ours,lean" to leave sides out), BENCH_PEER_READS (e.g. "byId"), BENCH_PEER_PROFILE
 * (a folder: a CPU profile of each side's process over its whole run, in `<side>/`, and the
 * answers it gave, for bench/tools/read-cost-table.ts; one read and one round make it that read's).
 */

const ROWS = Number(process.env.BENCH_PEER_ROWS ?? 10_000);
const ROUNDS = Number(process.env.BENCH_PEER_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_PEER_SECONDS ?? 15);
const WARMUP = Number(process.env.BENCH_PEER_WARMUP ?? 2);
const CONNECTIONS = Number(process.env.BENCH_PEER_CONNECTIONS ?? 10);
const PREFIX = process.env.BENCH_PEER_PREFIX ?? 'Org 0000';
const CHANGED = Number(process.env.BENCH_PEER_CHANGED ?? 500);

/** the issue's targets: every read ≥ 1.5× Directus; ≥ 0.5 of the lean baseline; pages ≥ 0.9 of the same-data one */
const TARGET_PEER = 1.5;
const TARGET_LEAN = 0.5;
const TARGET_SAME_DATA = 0.9;

type SideName = 'ours' | 'directus' | 'lean' | 'same';
const SIDE_LABEL: Record<SideName, string> = {
  ours: 'ours (v2, HTTPS, all guards)',
  directus: 'Directus',
  lean: 'lean baseline (pg + https)',
  same: 'same-data baseline',
};
const ALL_SIDES: SideName[] = ['ours', 'directus', 'lean', 'same'];
const SIDES = (process.env.BENCH_PEER_SIDES?.split(',') as SideName[] | undefined) ?? ALL_SIDES;

type ReadName = 'page' | 'prefix' | 'changes' | 'byId';
const READ_LABEL: Record<ReadName, string> = {
  page: 'first page of 100',
  prefix: 'prefix filter, sorted, with count',
  changes: 'change tracking (updated_at ≥, newest first)',
  byId: 'one record by id',
};
const ALL_READS: ReadName[] = ['page', 'prefix', 'changes', 'byId'];
const READS = (process.env.BENCH_PEER_READS?.split(',') as ReadName[] | undefined) ?? ALL_READS;

interface Target {
  url: string;
  headers: Record<string, string>;
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

function skip(reason: string): void {
  console.log(`\npeer: NOT RUN. ${reason}`);
  console.log('peer: the benchmark ends here without figures (it never fails the runner).');
  record({ benchmark: 'peer', figure: 'beside Directus', value: `not run: ${reason.split('\n')[0]?.slice(0, 120)}` });
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, '\\$&');

/** what the lean baseline reads: the rows and their address, one statement, nothing else */
const LEAN_COLUMNS = `o.*, (SELECT json_agg(a) FROM organization_address a
                             WHERE a.environment_id = $1 AND a.organization_id = o.id) AS addresses`;
const LEAN: Record<ReadName, string> = {
  page: `SELECT ${LEAN_COLUMNS} FROM organization o WHERE o.environment_id = $1 ORDER BY o.created_at, o.id LIMIT 100`,
  prefix: `SELECT ${LEAN_COLUMNS}, count(*) OVER () AS total FROM organization o
            WHERE o.environment_id = $1 AND lower(o.name) LIKE lower($2) || '%' ORDER BY o.name, o.id LIMIT 100`,
  changes: `SELECT ${LEAN_COLUMNS} FROM organization o
             WHERE o.environment_id = $1 AND o.updated_at >= $2 ORDER BY o.updated_at DESC, o.id DESC LIMIT 100`,
  byId: `SELECT ${LEAN_COLUMNS} FROM organization o WHERE o.environment_id = $1 AND o.id = $2`,
};

/** what the same-data baseline reads: the statement of the other read benchmarks (row, lookups' names, addresses) */
const SAME: Record<ReadName, string> = {
  page: organizationBaselineSql(),
  prefix: organizationBaselineSql(` AND lower(o.name) LIKE lower($2) || '%'`, 'o.name, o.id'),
  changes: organizationBaselineSql(' AND o.updated_at >= $2', 'o.updated_at DESC, o.id DESC'),
  byId: organizationBaselineSql(' AND o.id = $2'),
};
const SAME_COUNT = `SELECT count(*)::int AS n FROM organization o WHERE o.environment_id = $1 AND lower(o.name) LIKE lower($2) || '%'`;

interface Answer {
  ids: string[];
  count?: number;
  /** the answer's body in bytes (UTF-8): what each side builds, copies and encrypts per request */
  bytes: number;
}

async function answerOf(side: SideName, t: Target): Promise<Answer> {
  if (side === 'ours') {
    const u = new URL(t.url);
    const r = await call(Number(u.port), t.headers.host ?? '', t.headers, 'GET', `${u.pathname}${u.search}`);
    if (r.status !== 200) throw new Error(`ours ${u.pathname}${u.search} answered ${r.status}: ${JSON.stringify(r.body)}`);
    const body = r.body as { data: { id: string } | { id: string }[]; metadata?: { count?: number } };
    return {
      ids: Array.isArray(body.data) ? body.data.map((x) => x.id) : [body.data.id],
      count: body.metadata?.count,
      bytes: Buffer.byteLength(JSON.stringify(r.body)),
    };
  }
  // the baselines use the service's self-signed certificate, as ours does; autocannon ignores it, fetch must too
  const r = await fetch(t.url, { headers: t.headers });
  const text = await r.text();
  if (r.status !== 200) throw new Error(`${side} ${t.url} answered ${r.status}: ${text}`);
  const body = JSON.parse(text) as {
    data: { id: string; total?: string | number } | { id: string; total?: string | number }[];
    meta?: { filter_count?: number };
    count?: number;
  };
  const rows = Array.isArray(body.data) ? body.data : [body.data];
  const count =
    body.meta?.filter_count !== undefined
      ? Number(body.meta.filter_count)
      : body.count !== undefined
        ? body.count
        : rows[0]?.total !== undefined
          ? Number(rows[0].total)
          : undefined;
  return { ids: rows.map((x) => x.id), count, bytes: Buffer.byteLength(text) };
}

function line(label: string, r: LoadResult) {
  const bad = r.non2xx || r.errors ? `   non-2xx ${r.non2xx} errors ${r.errors} (figure not valid)` : '';
  return `  ${label.padEnd(34)} ${r.requestsPerSecond.toFixed(0).padStart(7)} req/s   p50 ${r.p50.toFixed(0).padStart(4)} ms   p99 ${r.p99.toFixed(0).padStart(4)} ms${bad}`;
}

export default async function run(): Promise<void> {
  const wantsPeer = SIDES.includes('directus');
  let install: PeerInstall | undefined;
  if (wantsPeer) {
    try {
      install = await installPeer();
    } catch (e) {
      skip(`The peer could not be installed: ${(e as Error).message}`);
      return;
    }
  }

  // the baselines answer with TLS on a self-signed certificate, like the service
  process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';
  const bench = await startBenchService();
  let directus: RunningDirectus | undefined;
  let peerDb: PeerDatabase | undefined;
  const processes: SideProcess[] = [];
  const profileDir = process.env.BENCH_PEER_PROFILE;
  if (profileDir) mkdirSync(profileDir, { recursive: true });
  try {
    const env = await bench.environment('bench');
    await insertOrganizations(bench.pool, env.id, ROWS);

    const prefixCount = Number(
      (
        await bench.pool.query<{ n: string }>(
          `SELECT count(*) AS n FROM organization WHERE environment_id = $1 AND lower(name) LIKE lower($2) || '%'`,
          [env.id, escapeLike(PREFIX)],
        )
      ).rows[0]?.n,
    );
    // a whole second, CHANGED rows back from the newest: every side reads the same instant (UTC)
    const since = (
      await bench.pool.query<{ t: Date }>(
        `SELECT date_trunc('second', max(updated_at)) - make_interval(secs => $2) AS t FROM organization WHERE environment_id = $1`,
        [env.id, CHANGED],
      )
    ).rows[0]?.t as Date;
    const changed = Number(
      (
        await bench.pool.query<{ n: string }>(
          'SELECT count(*) AS n FROM organization WHERE environment_id = $1 AND updated_at >= $2',
          [env.id, since],
        )
      ).rows[0]?.n,
    );
    const oneId = (
      await bench.pool.query<{ id: string }>(
        'SELECT id FROM organization WHERE environment_id = $1 ORDER BY created_at, id OFFSET $2 LIMIT 1',
        [env.id, Math.floor(ROWS / 2)],
      )
    ).rows[0]?.id as string;

    // each read's parameters after the environment ($1)
    const params: Record<ReadName, unknown[]> = {
      page: [env.id],
      prefix: [env.id, escapeLike(PREFIX)],
      changes: [env.id, since],
      byId: [env.id, oneId],
    };
    // each side that runs on this Node in a process of its own (bench/peer/sides.ts)
    const pids: Partial<Record<SideName, number>> = {};
    const started = async <T extends SideProcess>(side: SideName, run: Promise<T>): Promise<T> => {
      const p = await run;
      processes.push(p);
      pids[side] = p.pid;
      return p;
    };
    const statements = (sql: Record<ReadName, string>, count?: Partial<Record<ReadName, string>>) => ({
      url: bench.url,
      reads: Object.fromEntries(
        READS.map((read) => [read, { sql: sql[read], params: params[read], ...(count?.[read] ? { count: count[read] } : {}) }]),
      ),
    });
    // a side left out (BENCH_PEER_SIDES) is not started; its targets are never asked
    const baselineUrl = async (side: 'lean' | 'same', config: ReturnType<typeof statements>) =>
      SIDES.includes(side)
        ? `https://127.0.0.1:${(await started(side, startBaselineProcess(side, config, profileDir))).port}/`
        : '';
    const lean = { url: await baselineUrl('lean', statements(LEAN)) };
    const same = { url: await baselineUrl('same', statements(SAME, { prefix: SAME_COUNT })) };
    const oursPort = SIDES.includes('ours') ? (await started('ours', startServiceProcess(bench.url, profileDir))).port : 0;

    if (install) {
      try {
        peerDb = await createPeerDatabase(bench.url, bench.pool, env.id);
        directus = await startDirectus(install, peerDb.url);
        await directus.registerCollection('organization');
        await directus.registerCollection('organization_address');
        await directus.registerOneToMany('organization', 'addresses', 'organization_address', 'organization_id');
        // its schema cache is frozen: a start that reads the final schema, as in production
        await directus.restart();
      } catch (e) {
        skip(`Directus did not start on its database: ${(e as Error).message}`);
        return;
      }
    }

    const oursBase = `https://127.0.0.1:${oursPort}/api/v2/crm/organization`;
    const oursHeaders = { ...env.v2, host: env.host };
    const peerBase = directus ? `${directus.url}/items/organization` : '';
    const peerHeaders: Record<string, string> = directus ? { authorization: `Bearer ${directus.token}` } : {};
    const peerFields = 'fields=*,addresses.*';
    const targets: Record<ReadName, Record<SideName, Target>> = {
      page: {
        ours: { url: `${oursBase}?${qs({ limit: '100' })}`, headers: oursHeaders },
        directus: { url: `${peerBase}?${peerFields}&${qs({ sort: 'created_at,id', limit: '100' })}`, headers: peerHeaders },
        lean: { url: `${lean.url}page`, headers: {} },
        same: { url: `${same.url}page`, headers: {} },
      },
      prefix: {
        ours: {
          url: `${oursBase}?${qs({ 'q[name]': `${PREFIX}*`, metadata: 'count', sort: 'name', limit: '100' })}`,
          headers: oursHeaders,
        },
        directus: {
          url: `${peerBase}?${peerFields}&${qs({ 'filter[name][_istarts_with]': PREFIX, meta: 'filter_count', sort: 'name,id', limit: '100' })}`,
          headers: peerHeaders,
        },
        lean: { url: `${lean.url}prefix`, headers: {} },
        same: { url: `${same.url}prefix`, headers: {} },
      },
      changes: {
        ours: {
          url: `${oursBase}?${qs({ 'q[updated_at][ge]': contractDateTime(since), sort: '-updated_at', limit: '100' })}`,
          headers: oursHeaders,
        },
        directus: {
          url: `${peerBase}?${peerFields}&${qs({ 'filter[updated_at][_gte]': since.toISOString(), sort: '-updated_at,-id', limit: '100' })}`,
          headers: peerHeaders,
        },
        lean: { url: `${lean.url}changes`, headers: {} },
        same: { url: `${same.url}changes`, headers: {} },
      },
      byId: {
        ours: { url: `${oursBase}/${encodeURIComponent(oneId)}`, headers: oursHeaders },
        directus: { url: `${peerBase}/${encodeURIComponent(oneId)}?${peerFields}`, headers: peerHeaders },
        lean: { url: `${lean.url}byId`, headers: {} },
        same: { url: `${same.url}byId`, headers: {} },
      },
    };

    // every side answers the same question before anything is measured
    try {
      const expected: Record<ReadName, { rows: number; count?: number }> = {
        page: { rows: Math.min(100, ROWS) },
        prefix: { rows: Math.min(100, prefixCount), count: prefixCount },
        changes: { rows: Math.min(100, changed) },
        byId: { rows: 1 },
      };
      for (const read of READS) {
        const answers = new Map<SideName, Answer>();
        for (const side of SIDES) answers.set(side, await answerOf(side, targets[read][side]));
        const reference = answers.get('ours') ?? answers.get(SIDES[0] as SideName);
        for (const [side, a] of answers) {
          if (a.ids.length !== expected[read].rows) throw new Error(`${READ_LABEL[read]}: ${side} answered ${a.ids.length} rows`);
          // the first page: every side in creation order; the peer orders equal timestamps by id as we do
          if (reference && a.ids.some((id, i) => id !== reference.ids[i])) {
            throw new Error(`${READ_LABEL[read]}: ${side} answered other rows, or in another order, than ours`);
          }
          if (expected[read].count !== undefined && a.count !== expected[read].count) {
            throw new Error(`${READ_LABEL[read]}: ${side} counted ${a.count}, expected ${expected[read].count}`);
          }
        }
        console.log(`${READ_LABEL[read]}, bytes per answer: ${[...answers].map(([side, a]) => `${side} ${a.bytes}`).join(', ')}`);
      }
      console.log(`same answers on every side: ${READS.map((r) => READ_LABEL[r]).join('; ')}`);
    } catch (e) {
      skip(`The sides do not answer the same question, so nothing is compared: ${(e as Error).message}`);
      return;
    }

    const measure = (t: Target, seconds: number) => load({ url: t.url, headers: t.headers, connections: CONNECTIONS, seconds });
    if (WARMUP > 0) for (const read of READS) for (const side of SIDES) await measure(targets[read][side], WARMUP);

    console.log(
      `\n${ROWS.toLocaleString('en')} organizations with an address, ${CONNECTIONS} connections, ${ROUNDS} interleaved rounds of ${SECONDS} s per side and read` +
        `\nours: the compiled start (as \`pnpm start\` runs it), Node ${process.versions.node}, HTTPS, v2 in the reference's full shape; the baselines: the same Node, HTTPS; each side in a process of its own` +
        (install
          ? `; Directus ${install.directusVersion}: Node ${install.nodeVersion}, plain HTTP, its rows with their addresses`
          : ''),
    );
    // what each side's process spends with nothing asked (timers, listeners), taken off its CPU below
    const measured = SIDES.filter((side) => pids[side] !== undefined);
    const idle0 = new Map(measured.map((side) => [side, processCpuMicros(pids[side] as number)]));
    await new Promise((r) => setTimeout(r, 3_000));
    const idleMicrosPerSecond = new Map(
      measured.map((side) => [side, (processCpuMicros(pids[side] as number) - (idle0.get(side) ?? 0)) / 3]),
    );
    console.log(
      `Node CPU with nothing asked: ${measured.map((side) => `${side} ${idleMicrosPerSecond.get(side)?.toFixed(0)} µs/s`).join(', ')}`,
    );
    const answeredBySide = new Map<SideName, number>();
    const results = new Map<ReadName, Map<SideName, LoadResult[]>>(
      READS.map((r) => [r, new Map(SIDES.map((s) => [s, [] as LoadResult[]]))]),
    );
    for (let round = 1; round <= ROUNDS; round++) {
      console.log(`round ${round}/${ROUNDS}   load average ${loadAverage()}`);
      for (const read of READS) {
        // the order turns every round, so that no side always follows another's load
        const order = SIDES.map((_, i) => SIDES[(i + round - 1) % SIDES.length] as SideName);
        for (const side of order) {
          // the side's own process: its CPU per answer says what each costs, whatever the load
          const pid = pids[side];
          const cpu0 = pid === undefined ? 0 : processCpuMicros(pid);
          const res = await measure(targets[read][side], SECONDS);
          const cpu = pid === undefined ? 0 : processCpuMicros(pid) - cpu0;
          results.get(read)?.get(side)?.push(res);
          const answered = res.requestsPerSecond * SECONDS;
          answeredBySide.set(side, (answeredBySide.get(side) ?? 0) + answered);
          const perAnswer =
            pid === undefined || answered === 0
              ? ''
              : `   Node CPU ${((cpu - (idleMicrosPerSecond.get(side) ?? 0) * SECONDS) / answered).toFixed(0)} µs/answer`;
          console.log(`${line(`${READ_LABEL[read]}, ${side}`, res)}${perAnswer}`);
        }
      }
    }

    if (profileDir) {
      console.log(
        `\nCPU profiles in ${profileDir} (each side's process over the whole run, the warm-up included unless BENCH_PEER_WARMUP=0), answers measured: ${[...answeredBySide].map(([side, n]) => `${side} ${n.toFixed(0)}`).join(', ')}`,
      );
    }
    console.log(
      `\nper read: req/s the mean of the rounds, p50/p99 the median of the rounds   (load average now ${loadAverage()})`,
    );
    for (const read of READS) {
      const combined = new Map<SideName, LoadResult>(SIDES.map((s) => [s, combineRounds(results.get(read)?.get(s) ?? [])]));
      console.log(READ_LABEL[read]);
      for (const [side, r] of combined) console.log(line(SIDE_LABEL[side], r));
      const ours = combined.get('ours');
      if (!ours) continue;
      const versus = (side: SideName, target: number | undefined, label: string) => {
        const other = combined.get(side);
        if (!other) return;
        const ratio = ours.requestsPerSecond / other.requestsPerSecond;
        const valid = !(ours.non2xx || ours.errors || other.non2xx || other.errors);
        console.log(
          `  ours / ${label}: ${ratio.toFixed(2)}${target === undefined ? '' : ` (target ≥ ${target})`}${valid ? '' : '   NOT VALID: some replies failed'}`,
        );
        record({
          benchmark: 'peer',
          figure: `${READ_LABEL[read]}: ours / ${label}, ${CONNECTIONS} connections`,
          value: `${ours.requestsPerSecond.toFixed(0)} req/s, p99 ${ours.p99.toFixed(0)} ms${valid ? '' : ' (not valid)'}`,
          baseline: `${other.requestsPerSecond.toFixed(0)} req/s, p99 ${other.p99.toFixed(0)} ms`,
          ratio,
          ...(target === undefined ? {} : { atLeast: target }),
        });
      };
      versus('directus', TARGET_PEER, `Directus ${install?.directusVersion ?? ''}`.trim());
      versus('lean', TARGET_LEAN, 'lean baseline');
      // the issue names a same-data target for pages only
      versus('same', read === 'byId' ? undefined : TARGET_SAME_DATA, 'same-data baseline');
    }
  } finally {
    for (const p of processes) await p.stop();
    await directus?.stop();
    await peerDb?.drop();
    await bench.stop();
  }
}
