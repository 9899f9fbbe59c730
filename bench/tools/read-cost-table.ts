import { existsSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { fileURLToPath } from 'node:url';

/**
 * Profiling aid: the README's "What a read costs" table from a CPU profile that `bench peer` wrote
 * (BENCH_PEER_PROFILE=<dir>): self time by where it goes, in µs per answer (idle left out).
 *   npx tsx bench/tools/read-cost-table.ts <dir>/byId-ours-1.cpuprofile <answers in the profile>
 */
interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
}
const [file, answersArg] = process.argv.slice(2);
if (!file || !answersArg) throw new Error('usage: read-cost-table.ts <file.cpuprofile> <answers>');
const answers = Number(answersArg);
const profile = JSON.parse(readFileSync(file, 'utf8')) as { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };
// the compiled start's frames are in its bundle: each is named by the source it was built from (its source map)
const maps = new Map<string, SourceMap | null>();
function sourceOf(url: string, line: number, column: number): string {
  if (!url.endsWith('.mjs') || !url.startsWith('file:')) return url;
  let map = maps.get(url);
  if (map === undefined) {
    const file = `${fileURLToPath(url)}.map`;
    map = existsSync(file) ? new SourceMap(JSON.parse(readFileSync(file, 'utf8'))) : null;
    maps.set(url, map);
  }
  const entry = map?.findEntry(line, column) as { originalSource?: string } | undefined;
  return entry?.originalSource ?? url;
}
for (const n of profile.nodes) {
  n.callFrame.url = sourceOf(n.callFrame.url, n.callFrame.lineNumber, n.callFrame.columnNumber);
}
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const NATIVE_WRITES = new Set(['writev', 'writeBuffer', 'writeUtf8String', 'writeLatin1String', 'writeAsciiString']);

/** the table's row of a frame (its own time only) */
function rowOf(n: ProfileNode): string {
  const { url, functionName: f } = n.callFrame;
  if (f === '(idle)') return 'idle';
  if (f === '(garbage collector)') return 'garbage collection';
  if ((!url && NATIVE_WRITES.has(f)) || /stream_base_commons|node:net$/.test(url)) return 'socket writes';
  if (/entity-projection/.test(url)) return 'output check';
  if (/json-answer|envelope\.ts/.test(url)) return 'the answer’s JSON text';
  if (/\/(pg|pg-pool|pg-protocol|pg-types|postgres-array|postgres-date)@|packages\/db\//.test(url)) return 'reading rows';
  if (/@trpc|packages\/domain\/src\/trpc\.ts|zod@/.test(url)) return 'the query’s call (tRPC, zod)';
  if (/runtime\/src\/guard|domain\/src\/auth|rate-limiter|remembered/.test(url)) return 'guard';
  if (
    /\/(express|router|parseurl|path-to-regexp|body-parser|on-finished|finalhandler|debug|type-is|content-type)@|apps\/api-v2|http-app/.test(
      url,
    )
  )
    return 'express and the v2 set-up';
  if (!url || url.startsWith('node:')) return 'node:http and the runtime';
  return 'the domain and other';
}

const self = new Map<string, number>();
let idle = 0;
profile.samples.forEach((id, i) => {
  const node = byId.get(id);
  if (!node) return;
  const row = rowOf(node);
  const t = profile.timeDeltas[i] ?? 0;
  if (row === 'idle') idle += t;
  else self.set(row, (self.get(row) ?? 0) + t);
});
let total = 0;
for (const [row, t] of [...self].sort((a, b) => b[1] - a[1])) {
  total += t;
  console.log(`${String(Math.round(t / answers)).padStart(6)} µs  ${row}`);
}
console.log(`${String(Math.round(total / answers)).padStart(6)} µs  in all (idle ${Math.round(idle / answers)} µs)`);
