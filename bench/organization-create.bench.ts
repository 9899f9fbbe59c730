import { loadavg } from 'node:os';
import pg from 'pg';
import { CREATE_BODY, startCreateBaseline, startCreateService } from './support/baseline.js';
import { load, row } from './support/load.js';
import { record } from './support/summary.js';

/**
 * POST /api/v2/crm/organization at 10 concurrent connections (issue 15, "v2 create
 * throughput"), beside a baseline in the same process (`startCreateBaseline`: a node:https
 * server inserting the organization and its outbox event in one transaction through plain
 * pg). BENCH_DURATION (default 8) sets the
 * seconds per measurement.
 */
const DURATION_S = Number(process.env.BENCH_DURATION ?? 8);

const load1 = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

export default async function run(): Promise<void> {
  const { bench, env } = await startCreateService();
  const headers = { ...env.v2, host: env.host, 'content-type': 'application/json' };
  // as many connections as the service's own pool
  const pool = new pg.Pool({ connectionString: bench.url, max: 10 });
  // an idle client the server drops (the database is dropped at the end) must not end the run
  pool.on('error', () => {});
  const baseline = await startCreateBaseline(pool, env.id);
  const baselinePort = baseline.port;
  const body = JSON.stringify(CREATE_BODY);
  const drive = (url: string, seconds: number) => load({ url, headers, method: 'POST', body, idReplacement: true, seconds });
  const baseUrl = `https://127.0.0.1:${baselinePort}/`;
  const apiUrl = `https://127.0.0.1:${bench.service.port}/api/v2/crm/organization`;

  try {
    // warm both up so the first measured second is not a cold start
    await drive(baseUrl, 2);
    await drive(apiUrl, 2);
    console.log(`load average before the baseline: ${load1()}`);
    const base = await drive(baseUrl, DURATION_S);
    console.log(`load average before the service: ${load1()}`);
    const api = await drive(apiUrl, DURATION_S);
    const stored = await bench.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM organization o
        WHERE o.environment_id = $1
          AND EXISTS (SELECT 1 FROM organization_address a WHERE a.organization_id = o.id)
          AND EXISTS (SELECT 1 FROM event e WHERE e.entity_id = o.id AND e.type = 'organization.created')`,
      [env.id],
    );
    console.log(
      `organization creates (name, e-mail, relation number, visiting address, one custom field), 10 connections, ${DURATION_S} s each`,
    );
    console.log(row('baseline (pg + node:https: INSERT + event)', base));
    console.log(row('POST /api/v2/crm/organization', api));
    console.log(`${stored.rows[0]?.n ?? 0} organizations through the service with their address and event`);
    console.log(
      `ratio (service / baseline): throughput ${(api.requestsPerSecond / base.requestsPerSecond).toFixed(2)}, ` +
        `p99 ${(api.p99 / Math.max(base.p99, 1)).toFixed(2)}x   (target: throughput ratio >= 0.5)   load average ${load1()}`,
    );
    record({
      benchmark: 'organization-create',
      figure: 'v2 create (organization), 10 connections',
      value: `${api.requestsPerSecond.toFixed(0)} creates/s, p99 ${api.p99.toFixed(0)} ms`,
      baseline: `${base.requestsPerSecond.toFixed(0)} creates/s, p99 ${base.p99.toFixed(0)} ms`,
      ratio: api.requestsPerSecond / base.requestsPerSecond,
      atLeast: 0.5,
    });
  } finally {
    baseline.close();
    await pool.end();
    await bench.stop();
  }
}
