import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { applyMigrations, replicaRouterOf } from '@bo/db';
import { ALL_RIGHTS, createCaller, systemClock } from '@bo/domain';
import type { RunningService } from '@bo/server';
import { startClusters } from '../tests/support/pg-cluster.js';
import { interleavedRounds, load, row } from './support/load.js';
import { processCpuMs } from './support/backend-cpu.js';
import { insertOrganizations, serve } from './support/service.js';
import { record } from './support/summary.js';

/**
 * The routing overhead of read replicas (issue 30, section 1): GET /api/v2/crm/organization?limit=100 over
 * 10,000 organizations at 10 connections, on a primary and one streaming replica this benchmark starts
 * (tests/support/pg-cluster.ts), served by two services in this process: one with DATABASE_REPLICA_URLS,
 * one without, in interleaved rounds (BENCH_ROUNDS, default 3, of BENCH_DURATION seconds, default 6).
 * On one machine a replica adds no cores: the ratio is the routing's cost (the WAL position, the check
 * pipelined before the read), not the capacity replicas add. The per-request CPU printed after the rounds
 * (Node, the primary's backends, the replica's backends) is what docs/scaling.md's capacity on paper
 * starts from.
 */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_DURATION ?? 6);

/** CPU (ms) of every backend of `cluster` connected to database bo now, summed over a run of `fn` */
async function backendsCpu(url: string, fn: () => Promise<unknown>): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const pids = async () =>
    (
      await client.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE datname = 'bo' AND pid <> pg_backend_pid()`)
    ).rows.map((r) => r.pid);
  const before = new Map((await pids()).map((pid) => [pid, processCpuMs(pid) ?? 0]));
  await fn();
  let used = 0;
  // backends that came during the run count from 0
  for (const pid of await pids()) used += (processCpuMs(pid) ?? 0) - (before.get(pid) ?? 0);
  await client.end();
  return used;
}

export default async function run(): Promise<void> {
  const clusters = await startClusters();
  const dirs: string[] = [];
  const services: RunningService[] = [];
  try {
    const { primary } = clusters;
    await primary.query('CREATE DATABASE bo');
    await applyMigrations(primary.url('bo'));
    const replica = await clusters.addReplica();
    const dir = () => {
      const d = mkdtempSync(path.join(tmpdir(), 'bo-bench-'));
      dirs.push(d);
      return d;
    };
    const none = await serve(primary.url('bo'), dir());
    services.push(none);
    const routed = await serve(primary.url('bo'), dir(), { replicaUrls: [replica.url('bo')] });
    services.push(routed);

    const system = createCaller({ prisma: none.database.prisma, principal: { kind: 'system' }, clock: systemClock });
    const env = await system.admin.environment.create({ name: 'bench' });
    await system.admin.user.create({ environment: 'bench', email: 'bench@bench.test', rights: ALL_RIGHTS });
    const token = await system.admin.token.create({ environment: 'bench', user: 'bench@bench.test' });
    const pool = new pg.Pool({ connectionString: primary.url('bo'), max: 2 });
    await insertOrganizations(pool, env.id, 10_000);
    await pool.end();
    const headers = { 'authentication-key': token.key, 'authentication-secret': token.secret, host: 'bench.localhost' };
    const page = (service: RunningService, seconds: number) =>
      load({ url: `https://127.0.0.1:${service.port}/api/v2/crm/organization?limit=100`, headers, seconds });

    await page(none, 2);
    await page(routed, 2);
    const router = replicaRouterOf(routed.database.prisma);
    const before = router?.status()[0];
    const primaryBefore = router?.primaryReads ?? 0;
    const { base, api } = await interleavedRounds(ROUNDS, {
      base: () => page(none, SECONDS),
      api: () => page(routed, SECONDS),
    });
    const after = router?.status()[0];
    const onReplica = (after?.reads ?? 0) - (before?.reads ?? 0);
    const onPrimary = (router?.primaryReads ?? 0) - primaryBefore;
    console.log(
      `10,000 organizations, pages of 100, 10 connections, ${ROUNDS} interleaved rounds of ${SECONDS} s each (req/s the mean, p99 the median)`,
    );
    console.log(row('no replica', base));
    console.log(row('one replica (DATABASE_REPLICA_URLS)', api));
    console.log(
      `routed reads: ${onReplica} on the replica, ${onPrimary} on the primary (behind: ${(after?.behind ?? 0) - (before?.behind ?? 0)}, failed: ${(after?.failures ?? 0) - (before?.failures ?? 0)})`,
    );
    console.log(
      `ratio (one replica / none): throughput ${(api.requestsPerSecond / base.requestsPerSecond).toFixed(2)}, p99 ${(api.p99 / Math.max(base.p99, 1)).toFixed(2)}x`,
    );

    // per request, with the replica: Node CPU, the primary's backends, the replica's backends
    let requests = 0;
    const cpu0 = process.cpuUsage();
    let replicaMs = 0;
    const primaryMs = await backendsCpu(primary.url(), async () => {
      replicaMs = await backendsCpu(replica.url(), async () => {
        const r = await page(routed, SECONDS);
        requests = r.requestsPerSecond * SECONDS;
      });
    });
    const node = process.cpuUsage(cpu0);
    const per = (ms: number) => (requests > 0 ? ms / requests : 0).toFixed(3);
    console.log(
      `per request with one replica: node ${per((node.user + node.system) / 1000)} ms, primary ${per(primaryMs)} ms, replica ${per(replicaMs)} ms (CPU)`,
    );

    record({
      benchmark: 'replica-routing',
      figure: 'v2 list, 100 of 10,000 rows, 10 connections, one replica on the same 2 cores',
      value: `${api.requestsPerSecond.toFixed(0)} req/s, p99 ${api.p99.toFixed(0)} ms`,
      baseline: `no replica: ${base.requestsPerSecond.toFixed(0)} req/s, p99 ${base.p99.toFixed(0)} ms`,
      ratio: api.requestsPerSecond / base.requestsPerSecond,
    });
  } finally {
    for (const s of services) await s.stop().catch(() => {});
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
    await clusters.destroy();
  }
}
