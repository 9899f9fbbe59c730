import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { load, row } from './support/load.js';
import { insertOrganizations, startBenchService } from './support/service.js';
import { loadTls } from '@bo/runtime';
import { record } from './support/summary.js';

/**
 * GET /api/v2/crm/organization?limit=100 over 10,000 organizations at 10
 * concurrent connections, beside a baseline in the same process: the same page
 * read with plain pg (one query with joins) and written with node:https.
 */
export default async function run(): Promise<void> {
  const bench = await startBenchService();
  const env = await bench.environment('bench');
  await insertOrganizations(bench.pool, env.id, 10_000);
  const tls = await loadTls({ dataDir: mkdtempSync(path.join(tmpdir(), 'bo-bench-tls-')) });

  const baselineSql = `
    SELECT o.*, rt.label AS relation_type_label, i.name AS industry_name, s.name AS size_name,
           (SELECT json_agg(a) FROM organization_address a WHERE a.organization_id = o.id) AS addresses
    FROM organization o
    LEFT JOIN relation_type rt ON rt.id = o.relation_type_id
    LEFT JOIN industry i ON i.id = o.industry_id
    LEFT JOIN organization_size s ON s.id = o.organization_size_id
    WHERE o.environment_id = $1 ORDER BY o.created_at, o.id LIMIT 100`;
  const baseline = createServer({ cert: tls.cert, key: tls.key }, (_req, res) => {
    bench.pool.query(baselineSql, [env.id]).then(
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
  await new Promise<void>((resolve) => baseline.listen(0, '127.0.0.1', resolve));
  const baselinePort = (baseline.address() as AddressInfo).port;

  try {
    // warm both up so the first measured second is not a cold start
    await load({ url: `https://127.0.0.1:${baselinePort}/`, seconds: 2 });
    await load({
      url: `https://127.0.0.1:${bench.service.port}/api/v2/crm/organization?limit=100`,
      headers: { ...env.v2, host: env.host },
      seconds: 2,
    });
    const base = await load({ url: `https://127.0.0.1:${baselinePort}/`, seconds: 8 });
    const api = await load({
      url: `https://127.0.0.1:${bench.service.port}/api/v2/crm/organization?limit=100`,
      headers: { ...env.v2, host: env.host },
      seconds: 8,
    });
    console.log('10,000 organizations, pages of 100, 10 connections, 8 s each');
    console.log(row('baseline (pg + node:https, same page)', base));
    console.log(row('GET /api/v2/crm/organization?limit=100', api));
    console.log(
      `ratio (service / baseline): throughput ${(api.requestsPerSecond / base.requestsPerSecond).toFixed(2)}, ` +
        `p99 ${(api.p99 / Math.max(base.p99, 1)).toFixed(2)}x   (target: throughput ratio >= 0.6)`,
    );
    record({
      benchmark: 'organization-list',
      figure: 'v2 list, 100 of 10,000 rows, 10 connections',
      value: `${api.requestsPerSecond.toFixed(0)} req/s, p99 ${api.p99.toFixed(0)} ms`,
      baseline: `${base.requestsPerSecond.toFixed(0)} req/s, p99 ${base.p99.toFixed(0)} ms`,
      ratio: api.requestsPerSecond / base.requestsPerSecond,
      atLeast: 0.6,
    });
  } finally {
    baseline.close();
    await bench.stop();
  }
}
