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
 * `customFields`: also each row's custom-field values ({field id: value}, read as the service
 * reads them), for pages of organizations that have them: the same data the service answers.
 */
export function organizationBaselineSql(where = '', order = 'o.created_at, o.id', opts: { customFields?: boolean } = {}): string {
  const values = opts.customFields
    ? `,
           (SELECT json_object_agg(v.custom_field_id, v.value) FROM custom_field_value v
             WHERE v.environment_id = $1 AND v.entity_id = o.id) AS custom_fields`
    : '';
  return `
    SELECT o.*, rt.label AS relation_type_label, i.name AS industry_name, s.name AS size_name,
           (SELECT json_agg(a) FROM organization_address a WHERE a.organization_id = o.id) AS addresses${values}
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

/** the smallest create: the row alone (no address, no custom field), as the baseline writes it */
export const CREATE_NAME_ONLY_BODY = { name: 'Bench [<id>] BV' };

const BASELINE_INSERT = `INSERT INTO organization (id, environment_id, name, email, relation_number, created_at, updated_at)
  VALUES ($1, $2, $3, $4, $5, now(), now()) RETURNING *`;
const BASELINE_ADDRESS = `INSERT INTO organization_address (id, environment_id, organization_id, kind, line_1, postal_code, locality, country_code)
  VALUES ($1, $2, $3, 'visiting', $4, $5, $6, $7) RETURNING *`;
const BASELINE_CUSTOM_FIELD = `INSERT INTO custom_field_value (environment_id, custom_field_id, entity_id, value)
  SELECT $1, f.id, $2, $4 FROM custom_field f WHERE f.environment_id = $1 AND f.model_key = 'organization' AND f.name = $3
  RETURNING custom_field_id, value`;
const BASELINE_EVENT = `INSERT INTO event (id, environment_id, type, entity_type, entity_id, data, occurred_at)
  VALUES ($1, $2, 'organization.created', 'organization', $3, $4, now())`;

type CreateBody = Partial<typeof CREATE_BODY> & { name: string };

/**
 * The create baseline: a node:https server that parses the JSON body and, in one transaction
 * through plain pg, writes what the body names: the organization (`RETURNING *`), its visiting
 * address and its custom-field values when given (the same tables the service writes), and its
 * outbox event (the same `event` table and columns the service's event recorder writes) with the
 * rows it wrote as its payload; then answers the created row as JSON. One statement after the
 * other, as a plain implementation would. For the name-only body it is the baseline:
 * the INSERT plus its outbox row.
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
        const body = JSON.parse(Buffer.concat(parts).toString('utf8')) as CreateBody;
        const id = `organization:${randomBytes(16).toString('hex')}`;
        const client = await pool.connect();
        try {
          await client.query('BEGIN');
          const created = await client.query(BASELINE_INSERT, [
            id,
            environmentId,
            body.name,
            body.email ?? null,
            body.relation_number ?? null,
          ]);
          const data = created.rows[0] as Record<string, unknown>;
          const a = body.visiting_address;
          if (a) {
            const address = await client.query(BASELINE_ADDRESS, [
              `address:${randomBytes(16).toString('hex')}`,
              environmentId,
              id,
              a.line_1,
              a.postal_code,
              a.locality,
              a.country_code,
            ]);
            data.visiting_address = address.rows[0];
          }
          if (body.custom_fields?.length) {
            const values: unknown[] = [];
            for (const f of body.custom_fields) {
              const v = await client.query(BASELINE_CUSTOM_FIELD, [environmentId, id, f.name, f.value]);
              if (v.rowCount !== 1) throw new Error(`no custom field ${f.name}`);
              values.push({ ...v.rows[0], name: f.name });
            }
            data.custom_fields = values;
          }
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
