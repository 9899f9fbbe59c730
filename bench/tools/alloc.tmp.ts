import inspector from 'node:inspector';
import { writeFileSync } from 'node:fs';
import { load } from '../support/load.js';
import { insertOrganizations, startBenchService } from '../support/service.js';
const which = process.argv[2] ?? 'byId';
const bench = await startBenchService();
try {
  const env = await bench.environment('alloc');
  await insertOrganizations(bench.pool, env.id, 1000);
  const id = (await bench.pool.query('SELECT id FROM organization WHERE environment_id=$1 LIMIT 1', [env.id])).rows[0].id;
  const base = `https://127.0.0.1:${bench.service.port}/api/v2/crm/organization`;
  const url = which === 'byId' ? `${base}/${id}` : `${base}?limit=100`;
  const headers = { ...env.v2, host: env.host };
  await load({ url, headers, connections: 10, seconds: 2 });
  const s = new inspector.Session(); s.connect();
  const post = (m: string, p?: object) => new Promise<any>((res, rej) => s.post(m, p, (e, r) => (e ? rej(e) : res(r))));
  await post('HeapProfiler.enable');
  await post('HeapProfiler.startSampling', { samplingInterval: 4096, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
  const r = await load({ url, headers, connections: 10, seconds: 5 });
  const { profile } = await post('HeapProfiler.stopSampling');
  writeFileSync(`/tmp/alloc-${which}.heapprofile`, JSON.stringify(profile));
  console.log('req/s', r.requestsPerSecond, 'requests', r.requestsPerSecond * 5);
} finally { await bench.stop(); }
