import pg from 'pg';
import { databaseBackendsCpuMs } from '../support/backend-cpu.js';
import { CREATE_BODY, startCreateBaseline, startCreateService } from '../support/baseline.js';
import { load } from '../support/load.js';

/**
 * Profiling aid (not a benchmark): Node CPU and PostgreSQL CPU per organization create, the
 * service beside the create baseline (both in this process), at 10 connections.
 *   npx tsx bench/tools/create-cpu.ts [seconds] [rounds]
 */
const seconds = Number(process.argv[2] ?? 6);
const rounds = Number(process.argv[3] ?? 1);
const { bench, env } = await startCreateService();
const database = new URL(bench.url).pathname.slice(1);
const pool = new pg.Pool({ connectionString: bench.url, max: 10 });
pool.on('error', () => {});
const baseline = await startCreateBaseline(pool, env.id);
const body = JSON.stringify(CREATE_BODY);

async function measure(label: string, url: string, headers: Record<string, string>): Promise<number> {
  const drive = (s: number) => load({ url, headers, method: 'POST', body, idReplacement: true, seconds: s });
  await drive(2);
  const before = await databaseBackendsCpuMs(bench.pool, database);
  const c0 = process.cpuUsage();
  const r = await drive(seconds);
  const cpu = process.cpuUsage(c0);
  let pgMs = 0;
  for (const [pid, t] of await databaseBackendsCpuMs(bench.pool, database)) pgMs += t - (before.get(pid) ?? 0);
  const n = r.requestsPerSecond * seconds;
  const node = (cpu.user + cpu.system) / 1000 / n;
  console.log(
    `${label.padEnd(34)} ${r.requestsPerSecond.toFixed(0).padStart(5)} creates/s  node ${node.toFixed(2)} ms (system ${(cpu.system / 1000 / n).toFixed(2)})  postgres ${(pgMs / n).toFixed(2)} ms`,
  );
  return node + pgMs / n;
}

for (let round = 0; round < rounds; round += 1) {
  const b = await measure('baseline (pg + node:https)', `https://127.0.0.1:${baseline.port}/`, {
    'content-type': 'application/json',
  });
  const s = await measure('POST /api/v2/crm/organization', `https://127.0.0.1:${bench.service.port}/api/v2/crm/organization`, {
    ...env.v2,
    host: env.host,
    'content-type': 'application/json',
  });
  console.log(`CPU cost ratio baseline/service ${(b / s).toFixed(2)}`);
}
baseline.close();
await pool.end();
await bench.stop();
process.exit(0);
