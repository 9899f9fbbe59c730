import { mkdtempSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadTls } from '@bo/runtime';

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
