import { readFileSync } from 'node:fs';

/**
 * Profiling aid: a .cpuprofile's samples by the nearest ancestor frame matching one of the
 * patterns (function@url substrings, first match from the leaf up); the rest by the leaf.
 *   inclusive-profile.ts x.cpuprofile 'authenticate,rate-limit,entity-loader,v2-names,stringify'
 */
interface Node {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}
const p = JSON.parse(readFileSync(process.argv[2] as string, 'utf8')) as {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
};
const patterns = (process.argv[3] ?? '').split(',').filter(Boolean);
const parent = new Map<number, number>();
for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const byId = new Map(p.nodes.map((n) => [n.id, n]));
const label = (n: Node) =>
  `${n.callFrame.functionName || '(anon)'}@${n.callFrame.url.replace(/^.*node_modules\/\.pnpm\/([^/]+).*$/, '$1').replace(/^file:\/\/\/work\/main\//, '')}`;
const totals = new Map<string, number>();
let all = 0;
p.samples.forEach((id, i) => {
  const dt = p.timeDeltas[i] ?? 0;
  all += dt;
  let at: number | undefined = id;
  let found: string | null = null;
  while (at !== undefined && !found) {
    const n = byId.get(at) as Node;
    const l = label(n);
    for (const pat of patterns) if (l.includes(pat)) found = pat;
    at = parent.get(at);
  }
  const key = found ?? `(leaf) ${label(byId.get(id) as Node)}`;
  totals.set(key, (totals.get(key) ?? 0) + dt);
});
for (const [k, v] of [...totals].sort((a, b) => b[1] - a[1]).slice(0, 40))
  console.log(`${((100 * v) / all).toFixed(1).padStart(5)}%  ${k}`);
