import { Session } from 'node:inspector/promises';
import { load } from './support/load.js';
import { insertOrganizations, startBenchService } from './support/service.js';
const bench = await startBenchService();
const env = await bench.environment('bench');
await insertOrganizations(bench.pool, env.id, 10_000);
const url = `https://127.0.0.1:${bench.service.port}/api/v2/crm/organization?limit=100`;
await load({ url, headers: { ...env.v2, host: env.host }, seconds: 2 });
const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.start');
const r = await load({ url, headers: { ...env.v2, host: env.host }, seconds: 6 });
const { profile } = await session.post('Profiler.stop');
console.log('rps', r.requestsPerSecond);
type Node = {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
};
const nodes = profile.nodes as Node[];
const self = new Map<string, number>();
const byPkg = new Map<string, number>();
let total = 0;
for (const n of nodes) {
  const h = n.hitCount ?? 0;
  total += h;
  const u = n.callFrame.url.replace(/^.*node_modules\/\.pnpm\/([^/]+)\/.*$/, '$1').replace(/^file:\/\/\/work\/main\//, '');
  const key = `${n.callFrame.functionName || '(anon)'} ${u}:${n.callFrame.lineNumber}`;
  self.set(key, (self.get(key) ?? 0) + h);
  const pkg =
    u.startsWith('node:') || u === ''
      ? n.callFrame.functionName.startsWith('(')
        ? n.callFrame.functionName
        : 'node-internal'
      : (u.split('/')[0] ?? u);
  byPkg.set(pkg, (byPkg.get(pkg) ?? 0) + h);
}
console.log('--- by package');
for (const [k, v] of [...byPkg].sort((a, b) => b[1] - a[1]).slice(0, 15))
  console.log(((100 * v) / total).toFixed(1).padStart(5), k);
console.log('--- top self');
for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25))
  console.log(((100 * v) / total).toFixed(1).padStart(5), k);
await bench.stop();
process.exit(0);
