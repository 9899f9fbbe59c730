import { readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { loadAverage, summaryTable } from './support/summary.js';

/**
 * `pnpm bench` runs every bench/*.bench.ts; `pnpm bench <name>` runs the ones whose
 * file name contains <name>. Each benchmark prints its figures beside a baseline
 * measured in the same run, as ratios; none fails on machine noise.
 */
const dir = path.dirname(fileURLToPath(import.meta.url));
const filter = process.argv[2];
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => !filter || f.includes(filter))
  .sort();

if (files.length === 0) {
  console.error(filter ? `no benchmark matches "${filter}"` : 'no benchmarks');
  process.exit(2);
}

for (const file of files) {
  console.log(`\n=== ${file}   (load average ${loadAverage()})`);
  const mod = (await import(pathToFileURL(path.join(dir, file)).href)) as { default: () => Promise<void> };
  await mod.default();
}
const table = summaryTable();
if (table) {
  // one table for the run: figure, baseline, ratio, target, met (also written to bench/summary.md, git-ignored)
  console.log(`\n=== summary\n${table}`);
  writeFileSync(path.join(dir, 'summary.md'), `${table}\n`);
}
process.exit(0);
