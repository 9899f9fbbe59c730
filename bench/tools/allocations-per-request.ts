import { writeFileSync } from 'node:fs';
import inspector from 'node:inspector';
import { load } from '../support/load.js';
import { organizationRead, startBenchService } from '../support/service.js';

/**
 * Profiling aid (issue 31, "bytes built and copied"): V8's sampling heap profile of the service while
 * it serves one v2 read under load, and the bytes allocated per request by the functions that
 * allocate most.
 *   npx tsx bench/tools/allocations-per-request.ts byId|page [out.heapprofile]
 */
interface HeapNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: HeapNode[];
}

const read = process.argv[2] === 'page' ? 'page' : 'byId';
const bench = await startBenchService();
try {
  const { url, headers } = await organizationRead(bench, 'allocations', read);
  await load({ url, headers, connections: 10, seconds: 2 });
  const session = new inspector.Session();
  session.connect();
  const post = (method: string, params?: object) =>
    new Promise<unknown>((resolve, reject) =>
      session.post(method, params, (err, result) => (err ? reject(err) : resolve(result))),
    );
  await post('HeapProfiler.enable');
  await post('HeapProfiler.startSampling', {
    samplingInterval: 4096,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  const seconds = 5;
  const result = await load({ url, headers, connections: 10, seconds });
  const { profile } = (await post('HeapProfiler.stopSampling')) as { profile: { head: HeapNode } };
  session.disconnect();
  if (process.argv[3]) writeFileSync(process.argv[3], JSON.stringify(profile));
  const requests = result.requestsPerSecond * seconds;
  const bytes = new Map<string, number>();
  const walk = (n: HeapNode) => {
    const f = n.callFrame;
    const where = f.url.replace(/^.*node_modules\/\.pnpm\/([^/]+).*$/, '$1').replace(/^file:\/\/.*?\/(apps|packages)\//, '$1/');
    const key = `${f.functionName || '(anonymous)'} ${where}:${f.lineNumber}`;
    bytes.set(key, (bytes.get(key) ?? 0) + n.selfSize);
    for (const c of n.children) walk(c);
  };
  walk(profile.head);
  const total = [...bytes.values()].reduce((a, b) => a + b, 0);
  console.log(`${read}: ${requests.toFixed(0)} requests, ${(total / requests / 1024).toFixed(1)} kB allocated per request`);
  for (const [key, n] of [...bytes].sort((a, b) => b[1] - a[1]).slice(0, 25)) {
    console.log(`${(n / requests / 1024).toFixed(1).padStart(7)} kB  ${key}`);
  }
} finally {
  await bench.stop();
}
