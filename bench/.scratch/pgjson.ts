import https from 'node:https';
import { createServer } from 'node:https';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { loadTls } from '@bo/runtime';
import { interleavedRounds, load, row } from '../support/load.js';
import { organizationBaselineSql, startBaselineServer } from '../support/baseline.js';
import { insertOrganizations, startBenchService } from '../support/service.js';
import { loadAverage } from '../support/summary.js';

const bench = await startBenchService();
const env = await bench.environment('bench');
await insertOrganizations(bench.pool, env.id, 10_000);
await bench.pool.query('ANALYZE');
const headers = { ...env.v2, host: env.host } as Record<string, string>;
const ours = `https://127.0.0.1:${bench.service.port}/api/v2/crm/organization?limit=100`;
const sample = await new Promise<Record<string, unknown>>((resolve) => {
  https.get({ host: '127.0.0.1', port: bench.service.port, path: '/api/v2/crm/organization?limit=1', headers, rejectUnauthorized: false }, (r) => {
    let t = ''; r.setEncoding('utf8'); r.on('data', (c) => { t += c; }); r.on('end', () => resolve(JSON.parse(t).data[0]));
  });
});
const cols = new Map((await bench.pool.query<{ column_name: string; data_type: string }>(
  `SELECT column_name, data_type FROM information_schema.columns WHERE table_name = 'organization'`)).rows.map((r) => [r.column_name, r.data_type]));
const aliases: Record<string, string> = { created: 'created_at', modified: 'updated_at' };
function expr(key: string, value: unknown, table: string, tcols: Map<string, string>): string {
  const col = tcols.has(key) ? key : aliases[key];
  if (col && tcols.has(col)) {
    const t = tcols.get(col) as string;
    return t.startsWith('timestamp') ? `to_char(${table}.${col}, 'YYYY-MM-DD HH24:MI:SS')` : `${table}.${col}`;
  }
  if (Array.isArray(value)) return `'[]'::json`;
  if (value && typeof value === 'object') return obj(value as Record<string, unknown>, table, tcols);
  return value === null ? 'NULL' : typeof value === 'boolean' ? String(value) : `'${String(value)}'`;
}
function obj(o: Record<string, unknown>, table: string, tcols: Map<string, string>): string {
  const entries = Object.entries(o);
  // json_build_object takes at most 100 arguments: 50 keys per call, concatenated as jsonb would reorder: use json text join
  const parts: string[] = [];
  for (let i = 0; i < entries.length; i += 40) {
    parts.push(`json_build_object(${entries.slice(i, i + 40).map(([k, v]) => `'${k}', ${expr(k, v, table, tcols)}`).join(', ')})`);
  }
  return parts.length === 1 ? (parts[0] as string) : `(${parts.map((p, i) => (i === 0 ? `rtrim(${p}::text, '}')` : i === parts.length - 1 ? `',' || ltrim(${p}::text, '{')` : `',' || trim(${p}::text, '{}')`)).join(' || ')})::json`;
}
const acols = new Map((await bench.pool.query<{ column_name: string; data_type: string }>(
  `SELECT column_name, data_type FROM information_schema.columns WHERE table_name = 'organization_address'`)).rows.map((r) => [r.column_name, r.data_type]));
const { visiting_address, ...top } = sample;
let body = obj(top, 'o', cols);
const addr = `(SELECT ${obj(visiting_address as Record<string, unknown>, 'a', new Map([...acols, ['type', 'text']].filter(([k]) => k !== 'type')))} FROM organization_address a WHERE a.environment_id = $1 AND a.organization_id = o.id AND a.kind = 'visiting' LIMIT 1)`;
body = body.replace(/^json_build_object\(/, `json_build_object('visiting_address', ${addr}, `);
const sql = `SELECT (${body})::text AS j FROM organization o WHERE o.environment_id = $1 ORDER BY o.created_at, o.id LIMIT 100`;
const check = await bench.pool.query<{ j: string }>(sql, [env.id]);
console.log('pgjson item bytes', check.rows[0]?.j.length, 'ours item bytes', JSON.stringify(sample).length);
const tls = await loadTls({ dataDir: mkdtempSync(path.join(tmpdir(), 'w-')) });
const server = createServer({ cert: tls.cert, key: tls.key }, (_req, res) => {
  bench.pool.query({ text: sql, values: [env.id], name: 'pgjson' }).then((r) => {
    const rows = r.rows as { j: string }[];
    let s = '{"data":[';
    for (let i = 0; i < rows.length; i += 1) s += i ? `,${rows[i]?.j}` : rows[i]?.j;
    s += '],"errors":null,"debug":null}';
    res.setHeader('content-type', 'application/json');
    res.end(s);
  });
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const pgjson = `https://127.0.0.1:${(server.address() as AddressInfo).port}/`;
const lean = await startBaselineServer(() => bench.pool.query(`SELECT o.*, (SELECT json_agg(a) FROM organization_address a WHERE a.environment_id = $1 AND a.organization_id = o.id) AS addresses FROM organization o WHERE o.environment_id = $1 ORDER BY o.created_at, o.id LIMIT 100`, [env.id]));
const same = await startBaselineServer(() => bench.pool.query(organizationBaselineSql(), [env.id]));
const S = Number(process.env.S ?? 10);
const cpu = async (url: string, h: Record<string, string>) => {
  const c0 = process.cpuUsage();
  const r = await load({ url, headers: h, seconds: S });
  const c = process.cpuUsage(c0);
  console.log(row(url.slice(0, 40), r), 'node', ((c.user + c.system) / (r.requestsPerSecond * S)).toFixed(0), 'µs/req');
  return r;
};
for (const u of [ours, pgjson, lean.url, same.url]) await load({ url: u, headers: u === ours ? headers : {}, seconds: 2 });
const res = await interleavedRounds(Number(process.env.R ?? 2), {
  ours: () => cpu(ours, headers),
  pgjson: () => cpu(pgjson, {}),
  lean: () => cpu(lean.url, {}),
  same: () => cpu(same.url, {}),
});
for (const [k, r] of Object.entries(res)) console.log(k.padEnd(8), r.requestsPerSecond.toFixed(0));
console.log('load', loadAverage());
server.close(); lean.close(); same.close();
await bench.stop();
process.exit(0);
