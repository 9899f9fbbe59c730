import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { loadTls } from '@bo/runtime';
import { median, root, startAndWaitHealthy } from './support/compiled-start.js';
import { record } from './support/summary.js';

/**
 * Start to first /healthz (issue 15, "Start"), on the embedded default:
 * - restart: the compiled start (`node scripts/start.mjs`, the build up to date) on a data
 *   folder that already holds a database, against a baseline in the same run: `node -e`
 *   starting a bare node:https server with the same certificate (the cost of a Node process
 *   that answers HTTPS at all);
 * - the same restart through the README's command (`npx -y pnpm@10.34.9 start`, launchers included);
 * - a first start on an empty data folder (creates, migrates and seeds the database);
 * - the build alone (what a fresh clone's first start adds).
 * BENCH_START_RUNS (default 3) restarts each; the median counts.
 */
export default async function run(): Promise<void> {
  const runs = Math.max(1, Number(process.env.BENCH_START_RUNS ?? 3));
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bo-bench-start-'));
  const env = { DATA_DIR: dataDir, RUN_WORKER: 'true' };
  try {
    console.log(
      `load average before: ${loadavg()
        .map((x) => x.toFixed(2))
        .join(' ')}`,
    );
    const buildStarted = performance.now();
    execFileSync(process.execPath, ['scripts/build.mjs', '--force'], { cwd: root, stdio: 'ignore' });
    const buildMs = performance.now() - buildStarted;

    const first = await startAndWaitHealthy(env);
    await first.stop();

    const restarts: number[] = [];
    const stops: number[] = [];
    const viaPnpm: number[] = [];
    const baselines: number[] = [];
    const tls = await loadTls({ dataDir });
    const bare = `
      const https = require('node:https');
      https.createServer({ cert: process.env.C, key: process.env.K }, (q, s) => s.end('{"status":"ok"}'))
        .listen(Number(process.env.PORT), process.env.HOST);
      process.on('SIGTERM', () => process.exit(0));`;
    for (let i = 0; i < runs; i += 1) {
      const base = await startAndWaitHealthy({ C: tls.cert, K: tls.key }, { command: [process.execPath, '-e', bare] });
      await base.stop();
      baselines.push(base.readyMs);
      const again = await startAndWaitHealthy(env);
      stops.push(await again.stop());
      restarts.push(again.readyMs);
      const pnpm = await startAndWaitHealthy(env, { command: ['npx', '-y', 'pnpm@10.34.9', 'start'] });
      await pnpm.stop();
      viaPnpm.push(pnpm.readyMs);
    }
    const fresh = mkdtempSync(path.join(tmpdir(), 'bo-bench-start-fresh-'));
    let freshMs = 0;
    try {
      const f = await startAndWaitHealthy({ DATA_DIR: fresh });
      await f.stop();
      freshMs = f.readyMs;
    } finally {
      rmSync(fresh, { recursive: true, force: true });
    }

    const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
    const restart = median(restarts);
    const baseline = median(baselines);
    console.log(
      `embedded default, ${runs} runs each (median); load average after: ${loadavg()
        .map((x) => x.toFixed(2))
        .join(' ')}`,
    );
    console.log(`baseline: node -e bare https server to first answer   ${s(baseline)}   (${baselines.map(s).join(', ')})`);
    console.log(`restart: node scripts/start.mjs to /healthz          ${s(restart)}   (${restarts.map(s).join(', ')})`);
    console.log(`restart: npx -y pnpm@10.34.9 start to /healthz       ${s(median(viaPnpm))}   (${viaPnpm.map(s).join(', ')})`);
    console.log(`first start on an empty data folder                  ${s(freshMs)}`);
    console.log(`build (scripts/build.mjs --force)                    ${s(buildMs)}`);
    console.log(`SIGTERM to exit                                      ${s(median(stops))}`);
    console.log('targets: restart < 5 s; a fresh clone (install aside) < 20 s: build + first start + launchers');
    record({
      benchmark: 'start',
      figure: 'restart to /healthz, embedded, compiled (target < 5 s)',
      value: s(restart),
      baseline: `${s(baseline)} (node -e https server)`,
      ratio: restart / baseline,
    });
    record({
      benchmark: 'start',
      figure: 'restart to /healthz through npx pnpm start (target < 5 s)',
      value: s(median(viaPnpm)),
      baseline: `${s(baseline)} (node -e https server)`,
      ratio: median(viaPnpm) / baseline,
    });
    record({
      benchmark: 'start',
      figure: 'first start on an empty data folder, plus the build (fresh clone, install aside; target < 20 s)',
      value: `${s(freshMs + buildMs)} (${s(buildMs)} build)`,
      baseline: `${s(baseline)} (node -e https server)`,
      ratio: (freshMs + buildMs) / baseline,
    });
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
