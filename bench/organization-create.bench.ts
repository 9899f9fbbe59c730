import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { loadTls } from '@bo/runtime';
import { load, row } from './support/load.js';
import { call } from './support/setup.js';
import { startBenchService } from './support/service.js';
import { record } from './support/summary.js';

/**
 * POST /api/v2/crm/organization at 10 concurrent connections (issue 15, "v2 create
 * throughput"), beside a baseline in the same process: a node:https server that parses
 * the JSON body and, in one transaction through plain pg, inserts the organization and
 * its outbox event (the same `event` table and columns the service's event recorder
 * writes), then answers the created row as JSON. BENCH_DURATION (default 8) sets the
 * seconds per measurement.
 */
const DURATION_S = Number(process.env.BENCH_DURATION ?? 8);

/** the body both sides get; `[<id>]` is made unique per request by the load generator */
const BODY = {
  name: 'Bench [<id>] BV',
  relation_number: 'R-[<id>]',
  email: 'info-[<id>]@example.com',
  visiting_address: { line_1: 'Main 1', postal_code: '3511 AA', locality: 'Utrecht', country_code: 'NL' },
  custom_fields: [{ name: 'tier', value: 'gold' }],
};

const BASELINE_INSERT = `INSERT INTO organization (id, environment_id, name, email, relation_number, created_at, updated_at)
  VALUES ($1, $2, $3, $4, $5, now(), now()) RETURNING *`;
const BASELINE_EVENT = `INSERT INTO event (id, environment_id, type, entity_type, entity_id, data, occurred_at)
  VALUES ($1, $2, 'organization.created', 'organization', $3, $4, now())`;

const load1 = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

export default async function run(): Promise<void> {
  const bench = await startBenchService();
  const env = await bench.environment('bench');
  const headers = { ...env.v2, host: env.host, 'content-type': 'application/json' };
  const field = await call(bench.service.port, env.host, env.v2, 'POST', '/api/v2/crm/organizationcustomfields', {
    name: 'tier',
    label: 'Tier',
    type: 'text',
  });
  if (field.status !== 200) throw new Error(`could not define the custom field: ${JSON.stringify(field.body)}`);
  const tls = await loadTls({ dataDir: mkdtempSync(path.join(tmpdir(), 'bo-bench-tls-')) });

  // as many connections as the service's own pool
  const pool = new pg.Pool({ connectionString: bench.url, max: 10 });
  // an idle client the server drops (the database is dropped at the end) must not end the run
  pool.on('error', () => {});
  const baseline = createServer({ cert: tls.cert, key: tls.key }, (req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      const fail = () => {
        res.statusCode = 500;
        res.end();
      };
      void (async () => {
        const body = JSON.parse(Buffer.concat(parts).toString('utf8')) as typeof BODY;
        const id = `organization:${randomBytes(16).toString('hex')}`;
        const client = await pool.connect();
        try {
          await client.query('BEGIN');
          const created = await client.query(BASELINE_INSERT, [id, env.id, body.name, body.email, body.relation_number]);
          const data = created.rows[0] as Record<string, unknown>;
          await client.query(BASELINE_EVENT, [randomUUID(), env.id, id, JSON.stringify(data)]);
          await client.query('COMMIT');
          res.setHeader('content-type', 'application/json');
          res.end(JSON.stringify({ data, errors: null, debug: null }));
        } catch {
          await client.query('ROLLBACK').catch(() => {});
          fail();
        } finally {
          client.release();
        }
      })().catch(fail);
    });
  });
  await new Promise<void>((resolve) => baseline.listen(0, '127.0.0.1', resolve));
  const baselinePort = (baseline.address() as AddressInfo).port;
  const body = JSON.stringify(BODY);
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
