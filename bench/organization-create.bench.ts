import pg from 'pg';
import { CREATE_BODY, CREATE_NAME_ONLY_BODY, startCreateBaseline, startCreateService } from './support/baseline.js';
import { interleavedRounds, load, row } from './support/load.js';
import { loadAverage, record } from './support/summary.js';

/**
 * POST /api/v2/crm/organization at 10 concurrent connections (issue 15, "v2 create
 * throughput"), each body beside a baseline in the same process (`startCreateBaseline`: a
 * node:https server writing what the body names in one transaction through plain pg):
 * - name only: the organization's row and its outbox event, the baseline as it words it;
 * - the full body (e-mail, relation number, visiting address, one custom-field value): the row,
 *   the address, the value and the event on both sides (the same work).
 * Service and baseline are measured in interleaved rounds: BENCH_ROUNDS (default 3) of
 * BENCH_DURATION seconds (default 5) each.
 */
const DURATION_S = Number(process.env.BENCH_DURATION ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

export default async function run(): Promise<void> {
  const { bench, env } = await startCreateService();
  const headers = { ...env.v2, host: env.host, 'content-type': 'application/json' };
  // as many connections as the service's own pool
  const pool = new pg.Pool({ connectionString: bench.url, max: 10 });
  // an idle client the server drops (the database is dropped at the end) must not end the run
  pool.on('error', () => {});
  const baseline = await startCreateBaseline(pool, env.id);
  const baseUrl = `https://127.0.0.1:${baseline.port}/`;
  const apiUrl = `https://127.0.0.1:${bench.service.port}/api/v2/crm/organization`;

  const measure = async (label: string, figure: string, body: string) => {
    const drive = (url: string, seconds: number) => load({ url, headers, method: 'POST', body, idReplacement: true, seconds });
    // warm both up so the first measured second is not a cold start
    await drive(baseUrl, 2);
    await drive(apiUrl, 2);
    const { base, api } = await interleavedRounds(ROUNDS, {
      base: () => drive(baseUrl, DURATION_S),
      api: () => drive(apiUrl, DURATION_S),
    });
    console.log(
      `${label}, 10 connections, ${ROUNDS} interleaved rounds of ${DURATION_S} s each (req/s the mean, p99 the median)`,
    );
    console.log(row('baseline (pg + node:https, the same rows)', base));
    console.log(row('POST /api/v2/crm/organization', api));
    console.log(
      `ratio (service / baseline): throughput ${(api.requestsPerSecond / base.requestsPerSecond).toFixed(2)}, ` +
        `p99 ${(api.p99 / Math.max(base.p99, 1)).toFixed(2)}x   (target: throughput ratio >= 0.5)   load average ${loadAverage()}`,
    );
    record({
      benchmark: 'organization-create',
      figure,
      value: `${api.requestsPerSecond.toFixed(0)} creates/s, p99 ${api.p99.toFixed(0)} ms`,
      baseline: `${base.requestsPerSecond.toFixed(0)} creates/s, p99 ${base.p99.toFixed(0)} ms`,
      ratio: api.requestsPerSecond / base.requestsPerSecond,
      atLeast: 0.5,
    });
  };

  try {
    await measure(
      'organization creates, name only (the row and its event)',
      'v2 create (organization), name only: row + event on both sides, 10 connections',
      JSON.stringify(CREATE_NAME_ONLY_BODY),
    );
    await measure(
      'organization creates (name, e-mail, relation number, visiting address, one custom field)',
      'v2 create (organization), full body: row, address, custom field and event on both sides, 10 connections',
      JSON.stringify(CREATE_BODY),
    );
    const stored = await bench.pool.query<{ service: number; baseline: number }>(
      `SELECT count(*) FILTER (WHERE e.data ? 'visitingAddress')::int AS service,
              count(*) FILTER (WHERE e.data ? 'visiting_address')::int AS baseline
         FROM organization o JOIN event e ON e.entity_id = o.id AND e.type = 'organization.created'
        WHERE o.environment_id = $1 AND o.name LIKE 'Bench %'
          AND EXISTS (SELECT 1 FROM organization_address a WHERE a.organization_id = o.id)
          AND EXISTS (SELECT 1 FROM custom_field_value v WHERE v.entity_id = o.id)`,
      [env.id],
    );
    console.log(
      `full body: ${stored.rows[0]?.service ?? 0} organizations through the service and ${stored.rows[0]?.baseline ?? 0} through the baseline with their address, custom-field value and event`,
    );
  } finally {
    baseline.close();
    await pool.end();
    await bench.stop();
  }
}
