import { readFileSync } from 'node:fs';

/** Self time of a .cpuprofile by function and by package/file: npx tsx bench/tools/summarize-profile.ts x.cpuprofile */
interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
const profile = JSON.parse(readFileSync(process.argv[2] as string, 'utf8')) as {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
};
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map<number, number>();
profile.samples.forEach((id, i) => {
  self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
});
const total = [...self.values()].reduce((a, b) => a + b, 0);
const where = (url: string) => {
  const m = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (m) return m[1] as string;
  if (url.includes('/packages/') || url.includes('/apps/')) return url.replace(/^.*\/((?:packages|apps)\/.*)$/, '$1');
  return url || '(native)';
};
const fn = new Map<string, number>();
const pkg = new Map<string, number>();
for (const [id, t] of self) {
  const n = byId.get(id) as Node;
  const key = `${n.callFrame.functionName || '(anon)'}  ${where(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`;
  fn.set(key, (fn.get(key) ?? 0) + t);
  const p = where(n.callFrame.url).split(':')[0] as string;
  pkg.set(p, (pkg.get(p) ?? 0) + t);
}
const top = (m: Map<string, number>, k: number) =>
  [...m.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, k)
    .map(([name, t]) => `${((100 * t) / total).toFixed(1).padStart(5)}%  ${name}`)
    .join('\n');
console.log(
  `total ${(total / 1000).toFixed(0)} ms sampled\n--- by package/file\n${top(pkg, 25)}\n--- by function\n${top(fn, 40)}`,
);
