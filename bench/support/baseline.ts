import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import { loadTls } from '@bo/runtime';
import { type BenchService, startBenchService } from './service.js';
import { call } from './setup.js';

/**
 * The baseline the read benchmarks compare with: plain pg + node:https, answering each
 * request with the rows of one query in the v2 envelope, and nothing else (no auth, no
 * mapping, no limits). `rows(req)` picks and runs the query.
 */
export async function startBaselineServer(
  rows: (req: IncomingMessage) => Promise<{ rows: unknown[] }>,
): Promise<{ port: number; url: string; close(): void }> {
  const tls = await loadTls({ dataDir: mkdtempSync(path.join(tmpdir(), 'bo-bench-tls-')) });
  const server = createServer({ cert: tls.cert, key: tls.key }, (req, res) => {
    rows(req).then(
      (r) => {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ data: r.rows, errors: null, debug: null }));
      },
      () => {
        res.statusCode = 500;
        res.end();
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return { port, url: `https://127.0.0.1:${port}/`, close: () => server.close() };
}

/**
 * A page of organizations as plain SQL with joins (the row, its lookups' names, its addresses
 * as JSON): `where` is ANDed after the environment ($1), `order` is the ORDER BY.
 */
export function organizationBaselineSql(where = '', order = 'o.created_at, o.id'): string {
  return `
    SELECT o.*, rt.label AS relation_type_label, i.name AS industry_name, s.name AS size_name,
           (SELECT json_agg(a) FROM organization_address a WHERE a.organization_id = o.id) AS addresses
      FROM organization o
      LEFT JOIN relation_type rt ON rt.id = o.relation_type_id
      LEFT JOIN industry i ON i.id = o.industry_id
      LEFT JOIN organization_size s ON s.id = o.organization_size_id
     WHERE o.environment_id = $1${where}
     ORDER BY ${order} LIMIT 100`;
}

/** the organization-create body both sides get; `[<id>]` is made unique per request by the load generator */
export const CREATE_BODY = {
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

/**
 * The create baseline: a node:https server that parses the JSON body and, in one transaction
 * through plain pg, inserts the organization and its outbox event (the same `event` table and
 * columns the service's event recorder writes), then answers the created row as JSON.
 */
export async function startCreateBaseline(pool: pg.Pool, environmentId: string): Promise<{ port: number; close(): void }> {
  const tls = await loadTls({ dataDir: mkdtempSync(path.join(tmpdir(), 'bo-bench-tls-')) });
  const server = createServer({ cert: tls.cert, key: tls.key }, (req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      const fail = () => {
        res.statusCode = 500;
        res.end();
      };
      void (async () => {
        const body = JSON.parse(Buffer.concat(parts).toString('utf8')) as typeof CREATE_BODY;
        const id = `organization:${randomBytes(16).toString('hex')}`;
        const client = await pool.connect();
        try {
          await client.query('BEGIN');
          const created = await client.query(BASELINE_INSERT, [id, environmentId, body.name, body.email, body.relation_number]);
          const data = created.rows[0] as Record<string, unknown>;
          await client.query(BASELINE_EVENT, [randomUUID(), environmentId, id, JSON.stringify(data)]);
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
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, close: () => server.close() };
}

/** The bench service and an environment with the custom field CREATE_BODY names (`tier`, text). */
export async function startCreateService(): Promise<{
  bench: BenchService;
  env: Awaited<ReturnType<BenchService['environment']>>;
}> {
  const bench = await startBenchService();
  const env = await bench.environment('bench');
  const field = await call(bench.service.port, env.host, env.v2, 'POST', '/api/v2/crm/organizationcustomfields', {
    name: 'tier',
    label: 'Tier',
    type: 'text',
  });
  if (field.status !== 200) throw new Error(`could not define the custom field: ${JSON.stringify(field.body)}`);
  return { bench, env };
}
