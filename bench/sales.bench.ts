import { request } from 'node:https';
import { performance } from 'node:perf_hooks';
import { computeQuoteTotals, SERVICE_GROUP_TYPES, type TotalsGroup } from '@bo/domain/sales/quote/quote-totals';
import { startBaselineServer } from './support/baseline.js';
import { load, row } from './support/load.js';
import { startBenchService } from './support/service.js';
import { record } from './support/summary.js';

/**
 * `pnpm bench sales` (issue 12, Benchmark):
 * 1. the totals of a quote of 20 groups × 50 lines, computed by the one totals function (µs per quote);
 * 2. GET /api/v2/sales/quote?limit=100 (100 quotes with their stored totals) as req/s, beside a
 *    baseline in the same run: plain pg reading the same quotes with their stored groups and lines.
 */

function bigQuote(): TotalsGroup[] {
  return Array.from({ length: 20 }, (_, g) => {
    const type = SERVICE_GROUP_TYPES[g % SERVICE_GROUP_TYPES.length] ?? 'all_included';
    return {
      type,
      lines: Array.from({ length: 50 }, (_, i) => ({
        quantity: (i % 7) + 0.25,
        price: Number((10 + i * 1.3333).toFixed(4)),
        vatClassId: i % 3 === 0 ? 'vat:low' : 'vat:high',
        vatPercentage: i % 3 === 0 ? 9 : 21,
        chosen: type.startsWith('single') ? i === 0 : i % 2 === 0,
      })),
    };
  });
}

function totalsMicroseconds(): { perQuote: number; iterations: number } {
  const quote = bigQuote();
  for (let i = 0; i < 200; i += 1) computeQuoteTotals(quote);
  const iterations = 2_000;
  const start = performance.now();
  for (let i = 0; i < iterations; i += 1) computeQuoteTotals(quote);
  return { perQuote: ((performance.now() - start) * 1000) / iterations, iterations };
}

export default async function run(): Promise<void> {
  const t = totalsMicroseconds();
  console.log(`totals of 20 groups × 50 lines: ${t.perQuote.toFixed(1)} µs per quote (${t.iterations} runs)`);
  record({ benchmark: 'sales', figure: 'quote totals, 20 groups × 50 lines', value: `${t.perQuote.toFixed(0)} µs per quote` });

  const bench = await startBenchService();
  const env = await bench.environment('bench');
  // the service's certificate is its own: requests trust it explicitly
  const v2 = (method: string, p: string, body: unknown) =>
    new Promise<{ data: { id: string } }>((resolve, reject) => {
      const payload = JSON.stringify(body);
      const req = request(
        {
          host: '127.0.0.1',
          port: bench.service.port,
          path: `/api/v2${p}`,
          method,
          rejectUnauthorized: false,
          headers: {
            ...env.v2,
            host: env.host,
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(payload),
          },
        },
        (res) => {
          let text = '';
          res.on('data', (c: Buffer) => {
            text += c.toString('utf8');
          });
          res.on('end', () => resolve(JSON.parse(text) as { data: { id: string } }));
        },
      );
      req.on('error', reject);
      req.end(payload);
    });

  const org = await v2('POST', '/crm/organization', { name: 'Bench Buyer' });
  const sale = await v2('POST', '/sales/sales', { subject: 'Bench sale', organization_id: org.data.id });
  const vat = await bench.pool.query<{ id: string }>(`SELECT id FROM vat_class WHERE environment_id = $1 ORDER BY code`, [
    env.id,
  ]);
  for (let q = 0; q < 100; q += 1) {
    await v2('POST', '/sales/quote', {
      sales_id: sale.data.id,
      quote_subject: `Quote ${q}`,
      service_groups: Array.from({ length: 4 }, (_, g) => ({
        name: `Group ${g}`,
        type: g === 1 ? 'multiple_optional' : 'all_included',
        services: Array.from({ length: 10 }, (_, i) => ({
          name: `Line ${i}`,
          quantity: i + 1,
          price: 12.5 + i,
          vat_class_id: vat.rows[i % vat.rows.length]?.id,
          chosen: i % 2 === 0,
        })),
      })),
    });
  }

  const baselineSql = `
    SELECT q.*, (SELECT json_agg(json_build_object('id', g.id, 'name', g.name, 'type', g.type,
                   'lines', (SELECT json_agg(l ORDER BY l.position) FROM quote_line l WHERE l.group_id = g.id))
                   ORDER BY g.position)
                   FROM quote_service_group g WHERE g.quote_id = q.id) AS groups
      FROM quote q WHERE q.environment_id = $1 ORDER BY q.created_at, q.id LIMIT 100`;
  const baseline = await startBaselineServer(() => bench.pool.query(baselineSql, [env.id]));
  const baselinePort = baseline.port;
  const apiUrl = `https://127.0.0.1:${bench.service.port}/api/v2/sales/quote?limit=100`;
  const headers = { ...env.v2, host: env.host };

  try {
    await load({ url: `https://127.0.0.1:${baselinePort}/`, seconds: 2 });
    await load({ url: apiUrl, headers, seconds: 2 });
    const base = await load({ url: `https://127.0.0.1:${baselinePort}/`, seconds: 8 });
    const api = await load({ url: apiUrl, headers, seconds: 8 });
    console.log('100 quotes of 4 groups × 10 lines, one page of 100, 10 connections, 8 s each');
    console.log(row('baseline (pg reading the stored lines)', base));
    console.log(row('GET /api/v2/sales/quote?limit=100', api));
    console.log(`ratio (service / baseline): throughput ${(api.requestsPerSecond / base.requestsPerSecond).toFixed(2)}`);
    record({
      benchmark: 'sales',
      figure: 'page of 100 quotes with totals',
      value: `${api.requestsPerSecond.toFixed(0)} req/s`,
      baseline: `${base.requestsPerSecond.toFixed(0)} req/s`,
      ratio: api.requestsPerSecond / base.requestsPerSecond,
    });
  } finally {
    baseline.close();
    await bench.stop();
  }
}
