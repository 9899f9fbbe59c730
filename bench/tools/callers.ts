import { readFileSync } from 'node:fs';
/** Who calls a function (by name) in a .cpuprofile, with the self time under each stack: callers.ts x.cpuprofile writev */
interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
const p = JSON.parse(readFileSync(process.argv[2] as string, 'utf8')) as {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
};
const parent = new Map<number, number>();
for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const byId = new Map(p.nodes.map((n) => [n.id, n]));
const self = new Map<number, number>();
p.samples.forEach((id, i) => {
  self.set(id, (self.get(id) ?? 0) + (p.timeDeltas[i] ?? 0));
});
const stacks = new Map<string, number>();
for (const [id, t] of self) {
  const n = byId.get(id) as Node;
  if (n.callFrame.functionName !== process.argv[3]) continue;
  const chain: string[] = [];
  let cur = parent.get(id);
  while (cur !== undefined && chain.length < Number(process.argv[4] ?? 8)) {
    const c = byId.get(cur) as Node;
    chain.push(
      `${c.callFrame.functionName || '(anon)'}@${c.callFrame.url.split('/').slice(-1)[0]}:${c.callFrame.lineNumber + 1}`,
    );
    cur = parent.get(cur);
  }
  const k = chain.join(' < ');
  stacks.set(k, (stacks.get(k) ?? 0) + t);
}
for (const [k, t] of [...stacks].sort((a, b) => b[1] - a[1]).slice(0, 10)) console.log(`${(t / 1000).toFixed(0)} ms  ${k}`);
