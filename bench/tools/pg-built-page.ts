import { mkdtempSync } from 'node:fs';
import { createServer, request } from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadTls } from '@bo/runtime';
import { databaseBackendsCpuMs } from '../support/backend-cpu.js';
import { organizationBaselineSql, startBaselineServer } from '../support/baseline.js';
import { interleavedRounds, type LoadResult, load } from '../support/load.js';
import { insertOrganizations, startBenchService } from '../support/service.js';
import { loadAverage } from '../support/summary.js';

/**
 * Measuring aid (issue 31, not a benchmark): what the lever "the page's JSON built by PostgreSQL"
 * could give, before building it. One statement answers the v2 first page of 100 organizations in
 * the service's own wire shape, each row as compact JSON text (`row_to_json` of a select list whose
 * aliases are the v2 keys in the service's order, the visiting address a nested row); a node:https
 * server in this process writes the texts between the envelope's brackets, with no authentication,
 * routing or check. It is measured beside the service's page and the two baselines of `bench peer`
 * in interleaved rounds, with the CPU per request of Node (this process: the service and every
 * baseline run here) and of the database's backends.
 *
 * The select list is derived from the service's own answer: a key whose name (or the alias a v2 read
 * keeps beside it, `created` and `modified`) is a column of the table reads the column (timestamps as
 * v2 writes them), a text made from the id (the timeline address) the same text around each row's id,
 * any other key its value in the answer (null, false, []), which for these rows is what the service
 * answers. Before measuring it compares the page with the service's, item by item,
 * and prints how many values differ (0 expected).
 *   npx tsx bench/tools/pg-built-page.ts [rounds] [seconds]
 */
const rounds = Number(process.argv[2] ?? 2);
const seconds = Number(process.argv[3] ?? 10);
const bench = await startBenchService();
const env = await bench.environment('bench');
await insertOrganizations(bench.pool, env.id, 10_000);
await bench.pool.query('ANALYZE organization, organization_address');
const database = new URL(bench.url).pathname.slice(1);
const headers = { ...env.v2, host: env.host };
const pagePath = '/api/v2/crm/organization?limit=100';

function get(path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: bench.service.port, path, headers, rejectUnauthorized: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => {
        text += c;
      });
      res.on('end', () => resolve(text));
    });
    req.on('error', reject);
    req.end();
  });
}

async function columnsOf(table: string): Promise<Map<string, string>> {
  const r = await bench.pool.query<{ column_name: string; data_type: string }>(
    'SELECT column_name, data_type FROM information_schema.columns WHERE table_name = $1',
    [table],
  );
  return new Map(r.rows.map((c) => [c.column_name, c.data_type]));
}

const ALIASES: Record<string, string> = { created: 'created_at', modified: 'updated_at' };
const quoteIdent = (s: string) => `"${s.replace(/"/g, '""')}"`;
const literal = (v: unknown): string => {
  if (v === null) return 'NULL';
  if (Array.isArray(v) && v.length === 0) return `'[]'::json`;
  if (typeof v === 'boolean' || typeof v === 'number') return String(v);
  return `'${String(v).replace(/'/g, "''")}'`;
};

/** a select list giving `shape`'s keys in its order: columns of `alias` where they are, its values otherwise */
function selectList(
  shape: Record<string, unknown>,
  alias: string,
  columns: Map<string, string>,
  nested: (key: string) => string | undefined,
): string {
  return Object.entries(shape)
    .map(([key, value]) => {
      const column = columns.has(key) ? key : ALIASES[key];
      const type = column ? columns.get(column) : undefined;
      let expr: string;
      if (column && type) {
        expr = type.startsWith('timestamp')
          ? `to_char(${alias}.${quoteIdent(column)} AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS')`
          : `${alias}.${quoteIdent(column)}`;
      } else if (typeof value === 'string' && idSuffix && value.includes(idSuffix)) {
        // a value made from the id in code (the timeline address): the same text around each row's id
        expr = `replace(${literal(value)}, ${literal(idSuffix)}, split_part(${alias}.id, ':', 2))`;
      } else
        expr = nested(key) ?? (value !== null && typeof value === 'object' && !Array.isArray(value) ? 'NULL' : literal(value));
      return `${expr} AS ${quoteIdent(key)}`;
    })
    .join(', ');
}

const sample = JSON.parse(await get(pagePath)) as { data: Record<string, unknown>[] };
const first = sample.data[0] as Record<string, unknown>;
const idSuffix = String(first.id).split(':')[1];
const organizationColumns = await columnsOf('organization');
const addressColumns = await columnsOf('organization_address');
// the address's `type` is not its `kind`: v2 answers null there for these rows
addressColumns.delete('type');
const objectOf = (key: string): Record<string, unknown> =>
  (sample.data.find((o) => o[key] !== null && typeof o[key] === 'object')?.[key] as Record<string, unknown>) ?? {};
const visiting = objectOf('visiting_address');
const debtor = objectOf('debtor');
const nested = (key: string): string | undefined => {
  if (key === 'visiting_address') {
    return `(SELECT row_to_json(x) FROM (SELECT ${selectList(visiting, 'a', addressColumns, () => undefined)}
               FROM organization_address a
              WHERE a.environment_id = o.environment_id AND a.organization_id = o.id AND a.kind = 'visiting' LIMIT 1) x)`;
  }
  if (key === 'debtor')
    return `(SELECT row_to_json(x) FROM (SELECT ${selectList(debtor, 'o', organizationColumns, () => undefined)}) x)`;
  return undefined;
};
const sql = `SELECT (SELECT row_to_json(x) FROM (SELECT ${selectList(first, 'o', organizationColumns, nested)}) x)::text AS item
               FROM organization o WHERE o.environment_id = $1 ORDER BY o.created_at, o.id LIMIT 100`;

const built = await bench.pool.query<{ item: string }>(sql, [env.id]);
let differing = 0;
const differences = new Set<string>();
built.rows.forEach((r, i) => {
  const mine = JSON.parse(r.item) as Record<string, unknown>;
  const theirs = sample.data[i] as Record<string, unknown>;
  for (const key of new Set([...Object.keys(mine), ...Object.keys(theirs)])) {
    if (JSON.stringify(mine[key]) !== JSON.stringify(theirs[key])) {
      differing += 1;
      differences.add(key);
    }
  }
});
const builtBytes = built.rows.reduce((n, r) => n + Buffer.byteLength(r.item) + 1, 0) + 40;
console.log(
  `the page built by PostgreSQL: ${built.rows.length} items, ${builtBytes} bytes (the service's: ${Buffer.byteLength(JSON.stringify(sample))}); ` +
    `values that differ from the service's page: ${differing}${differences.size ? ` (${[...differences].join(', ')})` : ''}`,
);

// not startBaselineServer, which stringifies its rows: this side writes the texts as they are
const tls = await loadTls({ dataDir: mkdtempSync(path.join(tmpdir(), 'bo-bench-tls-')) });
const server = createServer({ cert: tls.cert, key: tls.key }, (_req, res) => {
  bench.pool.query<{ item: string }>({ name: 'pg-built-page', text: sql, values: [env.id] }).then(
    (r) => {
      let body = '{"data":[';
      for (let i = 0; i < r.rows.length; i += 1) body += i === 0 ? r.rows[i]?.item : `,${r.rows[i]?.item}`;
      body += '],"errors":null,"debug":null}';
      res.setHeader('content-type', 'application/json; charset=utf-8');
      res.end(body);
    },
    () => {
      res.statusCode = 500;
      res.end();
    },
  );
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const builtUrl = `https://127.0.0.1:${(server.address() as { port: number }).port}/`;
const lean = await startBaselineServer(() =>
  bench.pool.query(
    `SELECT o.*, (SELECT json_agg(a) FROM organization_address a WHERE a.environment_id = $1 AND a.organization_id = o.id) AS addresses
       FROM organization o WHERE o.environment_id = $1 ORDER BY o.created_at, o.id LIMIT 100`,
    [env.id],
  ),
);
const same = await startBaselineServer(() => bench.pool.query(organizationBaselineSql(), [env.id]));

const sides: Record<string, { url: string; headers: Record<string, string> }> = {
  service: { url: `https://127.0.0.1:${bench.service.port}${pagePath}`, headers },
  'built by PostgreSQL': { url: builtUrl, headers: {} },
  lean: { url: lean.url, headers: {} },
  'same-data': { url: same.url, headers: {} },
};
const cpu = new Map<string, { node: number[]; postgres: number[] }>();
async function measure(name: string): Promise<LoadResult> {
  const side = sides[name] as { url: string; headers: Record<string, string> };
  const before = await databaseBackendsCpuMs(bench.pool, database);
  const c0 = process.cpuUsage();
  const r = await load({ url: side.url, headers: side.headers, seconds });
  const c = process.cpuUsage(c0);
  const after = await databaseBackendsCpuMs(bench.pool, database);
  let postgresMs = 0;
  for (const [pid, ms] of after) postgresMs += ms - (before.get(pid) ?? 0);
  const n = r.requestsPerSecond * seconds;
  const seen = cpu.get(name) ?? { node: [], postgres: [] };
  seen.node.push(((c.user + c.system) / 1000 / n) * 1000);
  seen.postgres.push((postgresMs / n) * 1000);
  cpu.set(name, seen);
  return r;
}
for (const side of Object.values(sides)) await load({ url: side.url, headers: side.headers, seconds: 2 });
const results = await interleavedRounds(
  rounds,
  Object.fromEntries(Object.keys(sides).map((name) => [name, () => measure(name)])),
);
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
console.log(`\nfirst page of 100 organizations, ${rounds} interleaved rounds of ${seconds} s (load average ${loadAverage()})`);
for (const [name, r] of Object.entries(results)) {
  const c = cpu.get(name) as { node: number[]; postgres: number[] };
  console.log(
    `  ${name.padEnd(22)} ${r.requestsPerSecond.toFixed(0).padStart(5)} req/s   Node ${mean(c.node).toFixed(0).padStart(5)} µs   PostgreSQL ${mean(c.postgres).toFixed(0).padStart(5)} µs per request`,
  );
}
const rate = (name: string) => (results[name] as LoadResult).requestsPerSecond;
console.log(
  `  built by PostgreSQL / lean ${(rate('built by PostgreSQL') / rate('lean')).toFixed(2)}, / same-data ${(rate('built by PostgreSQL') / rate('same-data')).toFixed(2)}; service / lean ${(rate('service') / rate('lean')).toFixed(2)}, / same-data ${(rate('service') / rate('same-data')).toFixed(2)}`,
);
server.close();
lean.close();
same.close();
await bench.stop();
process.exit(0);
