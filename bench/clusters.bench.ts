import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { placementOf } from '@bo/db';
import { ALL_RIGHTS, createCaller, systemClock } from '@bo/domain';
import type { RunningService } from '@bo/server';
import { type PgCluster, type PgClusters, startClusters } from '../tests/support/pg-cluster.js';
import { adminArgv, root } from './support/admin-cli.js';
import { processCpuMs } from './support/backend-cpu.js';
import { startServerReaper } from './support/server-reaper.js';
import { CREATE_BODY } from './support/baseline.js';
import { type LoadResult, interleavedRounds, load, row } from './support/load.js';
import { insertOrganizations, serve } from './support/service.js';
import { call } from './support/setup.js';
import { record } from './support/summary.js';

/**
 * `pnpm bench clusters` (issue 30, section 2: environments placed on several clusters). Two PostgreSQL
 * servers are started here (initdb, tests/support/pg-cluster.ts, the same settings as the tests'), A and B:
 *
 * (a) the v2 list (GET /api/v2/crm/organization?limit=100 over 10,000 organizations with their addresses)
 *     and the v2 create (POST /api/v2/crm/organization, the full body of organization-create: e-mail,
 *     relation number, visiting address, one custom-field value) at 10 connections, against two services in
 *     this process: "two clusters", DATABASE_URLS = A/bo,B/bo with the environment placed on B (global
 *     data, the guard's reads, on A; the environment's rows on B), and "one cluster", DATABASE_URL = B/single
 *     only (everything on B: the environment's rows on the same server as with two). Interleaved rounds
 *     (BENCH_ROUNDS, default 3, of BENCH_DURATION seconds, default 6); the ratio is two clusters / one.
 *     On one 2-core machine a second cluster adds no cores: the ratio is what the routing costs (the
 *     placement read, once per environment and second; the global reads on a server apart from the
 *     tenant's), not the capacity clusters add. After the rounds, the CPU per request of Node, of A's
 *     backends and of B's backends, from which the capacity with N clusters is worked out on paper.
 * (b) `admin environment move <env> 1` in a child process (as `pnpm admin` runs it) of an environment of
 *     BENCH_MOVE_RECORDS records (default 100,000: organizations and their visiting addresses, half each,
 *     as environment-copy seeds them) from A to B, once per run: rows/s, seconds in all, seconds its
 *     writes were refused (the command's report).
 *
 * The servers, their data folders (and so every database in them) and the services' folders are removed
 * at the end, on failure too, and on SIGINT/SIGTERM; should this process be killed first, a detached
 * watch (support/server-reaper.ts) stops the servers and removes their folders once it is gone.
 */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_DURATION ?? 6);
const MOVE_RECORDS = Number(process.env.BENCH_MOVE_RECORDS ?? 100_000);
const ORGANIZATIONS = 10_000;
/**
 * The servers as the machine's own (where the other benchmarks run): durable commits and 128 MB of shared
 * buffers, not the tests' fsync off (which would flatter every write, the move's included); no autovacuum
 * (the data is ANALYZEd after loading), so that no vacuum lands in one side's round.
 */
const SERVER_SETTINGS = [
  'fsync = on',
  'full_page_writes = on',
  'synchronous_commit = on',
  'shared_buffers = 128MB',
  'autovacuum = off',
];
/** cores per cluster in the capacity on paper */
const CORES = 2;

interface Env {
  id: string;
  headers: Record<string, string>;
}

/** an environment with an all-rights token and the custom field CREATE_BODY names */
async function environment(service: RunningService, name: string): Promise<Env> {
  const system = createCaller({ prisma: service.database.prisma, principal: { kind: 'system' }, clock: systemClock });
  const env = await system.admin.environment.create({ name });
  await system.admin.user.create({ environment: name, email: `bench@${name}.test`, rights: ALL_RIGHTS });
  const token = await system.admin.token.create({ environment: name, user: `bench@${name}.test` });
  const v2 = { 'authentication-key': token.key, 'authentication-secret': token.secret };
  const host = `${name}.localhost`;
  const field = await call(service.port, host, v2, 'POST', '/api/v2/crm/organizationcustomfields', {
    name: 'tier',
    label: 'Tier',
    type: 'text',
  });
  if (field.status !== 200) throw new Error(`could not define the custom field: ${JSON.stringify(field.body)}`);
  return { id: env.id, headers: { ...v2, host } };
}

/** the cluster an environment is placed on (0 without a placement: one cluster) */
async function clusterOf(service: RunningService, environmentId: string): Promise<number> {
  const placement = placementOf(service.database.prisma);
  return placement ? (await placement.read(environmentId)).cluster.index : 0;
}

/** CPU (ms) of the backends connected to each (server, database) while `fn` runs; backends that came meanwhile count from 0 */
async function backendsCpu(targets: { url: string; database: string }[], fn: () => Promise<void>): Promise<number[]> {
  const clients = await Promise.all(
    targets.map(async (t) => {
      const c = new pg.Client({ connectionString: t.url });
      c.on('error', () => {});
      await c.connect();
      return c;
    }),
  );
  try {
    const pids = (i: number) =>
      (clients[i] as pg.Client)
        .query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [
          targets[i]?.database,
        ])
        .then((r) => r.rows.map((x) => x.pid));
    const before = await Promise.all(
      targets.map(async (_, i) => new Map((await pids(i)).map((pid) => [pid, processCpuMs(pid) ?? 0]))),
    );
    await fn();
    return await Promise.all(
      targets.map(async (_, i) => {
        let used = 0;
        for (const pid of await pids(i)) used += (processCpuMs(pid) ?? 0) - (before[i]?.get(pid) ?? 0);
        return used;
      }),
    );
  } finally {
    await Promise.all(clients.map((c) => c.end().catch(() => {})));
  }
}

interface PerRequest {
  node: number;
  /** per target of backendsCpu, ms per request */
  backends: number[];
}

/** one more run of `seconds` at the same load, with the CPU per request of this process (the services) and of the backends */
async function cpuPerRequest(
  targets: { url: string; database: string }[],
  drive: () => Promise<LoadResult>,
): Promise<PerRequest> {
  let requests = 0;
  const cpu0 = process.cpuUsage();
  const backends = await backendsCpu(targets, async () => {
    const r = await drive();
    requests = r.requestsPerSecond * SECONDS;
  });
  const node = process.cpuUsage(cpu0);
  const per = (ms: number) => (requests > 0 ? ms / requests : 0);
  return { node: per((node.user + node.system) / 1000), backends: backends.map(per) };
}

interface MoveReport {
  rows: number;
  caughtUpRows: number;
  deletedRows: number;
  writesBlockedMs: number;
  totalMs: number;
}

const children = new Set<ChildProcess>();

/** `admin environment move <env> <cluster> --json` in a child process; its log lines are echoed */
function moveInChild(databaseUrls: string[], dataDir: string, env: string, cluster: number): Promise<MoveReport> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, adminArgv(['environment', 'move', env, String(cluster), '--json']), {
      cwd: root,
      env: { ...process.env, DATABASE_URL: '', DATABASE_URLS: databaseUrls.join(','), DATA_DIR: dataDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.add(child);
    let out = '';
    let err = '';
    child.stdout?.on('data', (c: Buffer) => {
      out += c.toString();
    });
    child.stderr?.on('data', (c: Buffer) => {
      const text = c.toString();
      err = (err + text).slice(-4000);
      for (const line of text.split('\n')) if (line.trim()) console.log(`  move: ${line.trim()}`);
    });
    child.once('error', reject);
    child.once('exit', (code) => {
      children.delete(child);
      if (code !== 0) reject(new Error(`move exited with ${code}: ${err}`));
      else resolve(JSON.parse(out.trim().split('\n').pop() ?? '{}') as MoveReport);
    });
  });
}

const ms = (x: number) => x.toFixed(3);

export default async function run(): Promise<void> {
  const services: RunningService[] = [];
  const dirs: string[] = [];
  // each start, as soon as it is under way: a cleanup waits for it, then stops what it started
  const starting: Promise<PgClusters>[] = [];
  let cleaned: Promise<void> | undefined;
  const cleanup = () => {
    cleaned ??= (async () => {
      for (const c of children) c.kill('SIGKILL');
      for (const s of services) await s.stop().catch(() => {});
      for (const d of dirs) rmSync(d, { recursive: true, force: true });
      // stops both servers and removes their folders: every database in them goes too
      const started = await Promise.allSettled(starting);
      await Promise.all(started.map((c) => (c.status === 'fulfilled' ? c.value.destroy().catch(() => {}) : undefined)));
    })();
    return cleaned;
  };
  // pg_ctl's servers outlive this process: an interrupted run still stops them and removes their folders
  // (a repeated signal waits for the same clean-up); if this process is killed before it is done, the
  // reaper does it
  const onSignal = (signal: NodeJS.Signals) => {
    if (cleaned) return;
    console.error(`\n${signal}: stopping the benchmark's PostgreSQL servers and removing their folders`);
    void cleanup().finally(() => {
      reaper.done();
      process.exit(130);
    });
  };
  const reaper = startServerReaper();
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const dir = () => {
    const d = mkdtempSync(path.join(tmpdir(), 'bo-bench-'));
    dirs.push(d);
    reaper.add(d);
    return d;
  };

  try {
    console.log('starting two PostgreSQL servers (A, B) on this machine…');
    const start = () => startClusters({ settings: SERVER_SETTINGS, onFolder: (root) => reaper.add(root) });
    starting.push(start(), start());
    const [a, b] = (await Promise.all(starting)).map((c) => c.primary) as [PgCluster, PgCluster];
    await a.query('CREATE DATABASE bo');
    await b.query('CREATE DATABASE bo');
    await b.query('CREATE DATABASE single');
    const urls = [a.url('bo'), b.url('bo')];
    // each service migrates its clusters on start
    const two = await serve(urls[0] as string, dir(), { databaseUrls: urls });
    services.push(two);
    const one = await serve(b.url('single'), dir());
    services.push(one);

    // new environments go to the cluster holding the fewest (ties: the first): a first one keeps A busy
    await environment(two, 'filler');
    const twoEnv = await environment(two, 'bench');
    const placedOn = await clusterOf(two, twoEnv.id);
    if (placedOn !== 1) throw new Error(`the environment was placed on cluster ${placedOn}, not the second`);
    const oneEnv = await environment(one, 'bench');
    for (const [url, env] of [
      [b.url('bo'), twoEnv],
      [b.url('single'), oneEnv],
    ] as const) {
      const pool = new pg.Pool({ connectionString: url, max: 2 });
      await insertOrganizations(pool, env.id, ORGANIZATIONS);
      await pool.end();
    }
    const [onA] = await a.query<{ n: number }>('SELECT count(*)::int AS n FROM organization', [], 'bo');
    if ((onA?.n ?? 0) !== 0) throw new Error(`${onA?.n} organizations on the first cluster: the placement was not followed`);

    console.log(
      'both servers run on this machine: a second cluster adds no cores here, so the ratios are what the routing ' +
        'costs (two clusters / one), not the capacity a second cluster adds',
    );
    console.log(
      `two clusters: DATABASE_URLS = A/bo,B/bo, the environment on B (global data on A); one cluster: DATABASE_URL = B/single`,
    );

    // (a) the list
    const list = (s: RunningService, env: Env, seconds: number) =>
      load({ url: `https://127.0.0.1:${s.port}/api/v2/crm/organization?limit=100`, headers: env.headers, seconds });
    await list(one, oneEnv, 2);
    await list(two, twoEnv, 2);
    const lists = await interleavedRounds(ROUNDS, {
      one: () => list(one, oneEnv, SECONDS),
      two: () => list(two, twoEnv, SECONDS),
    });
    console.log(
      `v2 list: ${ORGANIZATIONS.toLocaleString('en')} organizations, pages of 100, 10 connections, ${ROUNDS} interleaved rounds of ${SECONDS} s each (req/s the mean, p99 the median)`,
    );
    console.log(row('one cluster (DATABASE_URL)', lists.one));
    console.log(row('two clusters (DATABASE_URLS, env on the 2nd)', lists.two));
    const listRatio = lists.two.requestsPerSecond / lists.one.requestsPerSecond;
    console.log(
      `ratio (two clusters / one): throughput ${listRatio.toFixed(2)}, p99 ${(lists.two.p99 / Math.max(lists.one.p99, 1)).toFixed(2)}x`,
    );

    // (a) the create
    const body = JSON.stringify(CREATE_BODY);
    const create = (s: RunningService, env: Env, seconds: number) =>
      load({
        url: `https://127.0.0.1:${s.port}/api/v2/crm/organization`,
        headers: { ...env.headers, 'content-type': 'application/json' },
        method: 'POST',
        body,
        idReplacement: true,
        seconds,
      });
    await create(one, oneEnv, 2);
    await create(two, twoEnv, 2);
    const creates = await interleavedRounds(ROUNDS, {
      one: () => create(one, oneEnv, SECONDS),
      two: () => create(two, twoEnv, SECONDS),
    });
    console.log(
      `v2 create (name, e-mail, relation number, visiting address, one custom field), 10 connections, ${ROUNDS} interleaved rounds of ${SECONDS} s each`,
    );
    console.log(row('one cluster (DATABASE_URL)', creates.one));
    console.log(row('two clusters (DATABASE_URLS, env on the 2nd)', creates.two));
    const createRatio = creates.two.requestsPerSecond / creates.one.requestsPerSecond;
    console.log(
      `ratio (two clusters / one): throughput ${createRatio.toFixed(2)}, p99 ${(creates.two.p99 / Math.max(creates.one.p99, 1)).toFixed(2)}x`,
    );
    const [createdTwo] = await b.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM organization WHERE name LIKE 'Bench %'`,
      [],
      'bo',
    );
    const [createdOnA] = await a.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM organization WHERE name LIKE 'Bench %'`,
      [],
      'bo',
    );
    console.log(`two clusters: ${createdTwo?.n ?? 0} organizations created on B, ${createdOnA?.n ?? 0} on A`);

    // CPU per request, one more run each: Node (both services are in this process), A's and B's backends
    const twoTargets = [
      { url: a.url(), database: 'bo' },
      { url: b.url(), database: 'bo' },
    ];
    const oneTargets = [{ url: b.url(), database: 'single' }];
    const cpu = {
      listOne: await cpuPerRequest(oneTargets, () => list(one, oneEnv, SECONDS)),
      listTwo: await cpuPerRequest(twoTargets, () => list(two, twoEnv, SECONDS)),
      createOne: await cpuPerRequest(oneTargets, () => create(one, oneEnv, SECONDS)),
      createTwo: await cpuPerRequest(twoTargets, () => create(two, twoEnv, SECONDS)),
    };
    console.log(
      "CPU per request (ms): n = Node, c = the one cluster; g = the first (global) cluster, t = the environment's cluster",
    );
    for (const [label, o, t] of [
      ['list', cpu.listOne, cpu.listTwo],
      ['create', cpu.createOne, cpu.createTwo],
    ] as const) {
      console.log(
        `  ${label.padEnd(7)} one cluster: n ${ms(o.node)}, c ${ms(o.backends[0] ?? 0)}   two clusters: n ${ms(t.node)}, g ${ms(t.backends[0] ?? 0)}, t ${ms(t.backends[1] ?? 0)}`,
      );
    }
    // On paper: environments spread evenly over N clusters of CORES cores each, the first also holding the
    // global data. Every request costs g on the first cluster and t on its environment's cluster, so the
    // first cluster bounds the rate at CORES / (g + t / N) and the others at N × CORES / t (the smaller
    // holds); with one cluster, CORES / c. The API processes scale apart: A cores give A / n.
    console.log(
      `capacity on paper, database-bound, ${CORES} cores per cluster, environments spread evenly (the first cluster also takes every request's global reads):`,
    );
    for (const [label, o, t] of [
      ['list', cpu.listOne, cpu.listTwo],
      ['create', cpu.createOne, cpu.createTwo],
    ] as const) {
      const c = o.backends[0] ?? 0;
      const g = t.backends[0] ?? 0;
      const tt = t.backends[1] ?? 0;
      const cap = (n: number) => Math.min(CORES / Math.max(g + tt / n, 1e-9), (n * CORES) / Math.max(tt, 1e-9)) * 1000;
      const figures = [2, 4, 8].map((n) => `N=${n} ${cap(n).toFixed(0)}`).join(', ');
      console.log(
        `  ${label.padEnd(7)} N=1 ${((CORES / Math.max(c, 1e-9)) * 1000).toFixed(0)} req/s, ${figures} req/s; ` +
          `API-bound: ${(1000 / Math.max(t.node, 1e-9)).toFixed(0)} req/s per API core`,
      );
    }

    record({
      benchmark: 'clusters',
      figure: `v2 list, 100 of ${ORGANIZATIONS.toLocaleString('en')}, 10 connections: environment on the 2nd of two clusters (same 2 cores)`,
      value: `${lists.two.requestsPerSecond.toFixed(0)} req/s, p99 ${lists.two.p99.toFixed(0)} ms`,
      baseline: `one cluster: ${lists.one.requestsPerSecond.toFixed(0)} req/s, p99 ${lists.one.p99.toFixed(0)} ms`,
      ratio: listRatio,
    });
    record({
      benchmark: 'clusters',
      figure: 'v2 create (full body), 10 connections: environment on the 2nd of two clusters (same 2 cores)',
      value: `${creates.two.requestsPerSecond.toFixed(0)} creates/s, p99 ${creates.two.p99.toFixed(0)} ms`,
      baseline: `one cluster: ${creates.one.requestsPerSecond.toFixed(0)} creates/s, p99 ${creates.one.p99.toFixed(0)} ms`,
      ratio: createRatio,
    });

    // (b) the move: an environment on A (A holds filler, B holds bench: the tie goes to the first)
    const moved = await environment(two, 'moved');
    const from = await clusterOf(two, moved.id);
    if (from !== 0) throw new Error(`the environment to move was placed on cluster ${from}, not the first`);
    console.log(`loading ${MOVE_RECORDS.toLocaleString('en')} records (organizations and their visiting addresses) on A…`);
    const pool = new pg.Pool({ connectionString: a.url('bo'), max: 2 });
    await insertOrganizations(pool, moved.id, Math.round(MOVE_RECORDS / 2), 'Moved');
    await pool.end();
    // the services are idle from here; stopped, they take no CPU from the move
    for (const s of services.splice(0)) await s.stop();
    const started = performance.now();
    const report = await moveInChild(urls, dir(), 'moved', 1);
    const wall = (performance.now() - started) / 1000;
    const count = (c: typeof a) =>
      c
        .query<{ n: number }>('SELECT count(*)::int AS n FROM organization WHERE environment_id = $1', [moved.id], 'bo')
        .then((r) => r[0]?.n ?? 0);
    const [leftOnA, nowOnB] = [await count(a), await count(b)];
    if (leftOnA !== 0 || nowOnB !== Math.round(MOVE_RECORDS / 2)) {
      throw new Error(
        `after the move: ${leftOnA} organizations on A, ${nowOnB} on B (expected 0 and ${Math.round(MOVE_RECORDS / 2)})`,
      );
    }
    const total = report.totalMs / 1000;
    const rate = report.rows / Math.max(0.001, total);
    console.log(
      `move of ${MOVE_RECORDS.toLocaleString('en')} records (${report.rows.toLocaleString('en')} rows with the environment's seeded reference data, ` +
        `${report.caughtUpRows} caught up, ${report.deletedRows} deleted): ${total.toFixed(1)} s in all (${wall.toFixed(1)} s with the CLI's start), ` +
        `${rate.toFixed(0)} rows/s, writes refused ${(report.writesBlockedMs / 1000).toFixed(1)} s`,
    );
    record({
      benchmark: 'clusters',
      figure: `admin environment move <env> 1, ${MOVE_RECORDS.toLocaleString('en')} records, A to B on the same 2 cores`,
      value: `${rate.toFixed(0)} rows/s, ${total.toFixed(1)} s in all, writes refused ${(report.writesBlockedMs / 1000).toFixed(1)} s`,
    });
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await cleanup();
    reaper.done();
  }
}
