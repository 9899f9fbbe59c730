import { createHook } from 'node:async_hooks';
import { load } from '../support/load.js';
import { organizationRead, startBenchService } from '../support/service.js';

/**
 * Profiling aid (issue 31): the promises (and other async resources) the service creates per v2 read
 * under load (the load generator runs in a child process), by the first FRAMES (3) frames of ours or
 * of a package that created them, out of the DEPTH (12) deepest; the TOP (60) most frequent.
 *   [FRAMES=3] [DEPTH=12] [TOP=60] npx tsx bench/tools/promises-per-request.ts byId|page
 */
const read = process.argv[2] === 'page' ? 'page' : 'byId';
const bench = await startBenchService();
try {
  const { url, headers } = await organizationRead(bench, 'promises', read);
  await load({ url, headers, connections: 10, seconds: 2 });
  const byWhere = new Map<string, number>();
  const holder: { stack?: string } = {};
  let on = false;
  const hook = createHook({
    init(_id, type) {
      if (!on) return;
      const prev = Error.stackTraceLimit;
      Error.stackTraceLimit = Number(process.env.DEPTH ?? 12);
      Error.captureStackTrace(holder);
      Error.stackTraceLimit = prev;
      const lines = (holder.stack ?? '')
        .split('\n')
        .slice(2)
        .filter((l) => !/\(node:|emitInit/.test(l))
        .slice(0, Number(process.env.FRAMES ?? 3))
        .map((l) =>
          l
            .trim()
            .replace(/^at /, '')
            .replace(/\(.*node_modules\/\.pnpm\/([^/]+).*?([^/]+:\d+):\d+\)/, '($1 $2)')
            .replace(/\(file:\/\/.*?\/(apps|packages|bench)\/(.*?):(\d+):\d+\)/, '($2:$3)')
            .replace(/\(node:.*?\)/, '(node)'),
        );
      const key = `${type} ${lines.join(' < ')}`;
      byWhere.set(key, (byWhere.get(key) ?? 0) + 1);
    },
  });
  hook.enable();
  on = true;
  const result = await load({ url, headers, connections: 10, seconds: 3 });
  on = false;
  hook.disable();
  const requests = result.requestsPerSecond * 3;
  const total = [...byWhere.values()].reduce((a, b) => a + b, 0);
  console.log(`${read}: ${requests.toFixed(0)} requests, ${(total / requests).toFixed(1)} async resources per request`);
  for (const [key, n] of [...byWhere].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.TOP ?? 60))) {
    console.log(`${(n / requests).toFixed(2).padStart(7)}  ${key}`);
  }
} finally {
  await bench.stop();
}
