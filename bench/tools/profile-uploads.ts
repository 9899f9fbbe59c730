import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { call } from '../support/setup.js';
import { startBenchService } from '../support/service.js';

/**
 * Profiling aid (not a benchmark): the service in this process, CPU-profiled only
 * while it takes a chunked upload (CHUNKS chunks of 384,000 bytes, default 150).
 * The client's own work (base64 encode, JSON.stringify, TLS) is in the profile too:
 * summarize with bench/tools/summarize-profile.ts and read the service's frames.
 *   npx tsx bench/tools/profile-uploads.ts /tmp/uploads.cpuprofile
 */
const out = process.argv[2] ?? 'uploads.cpuprofile';
const CHUNKS = Number(process.env.CHUNKS ?? 150);
const CHUNK = 384_000;
const bench = await startBenchService();
const env = await bench.environment('bench');
const port = bench.service.port;
const chunk = Buffer.alloc(CHUNK, 7).toString('base64');
const upload = async (chunks: number) => {
  const { body } = await call(port, env.host, env.v2, 'POST', '/api/v2/upload/chunked', {
    file_name: 'p.bin',
    file_size: chunks * CHUNK,
  });
  const id = (body as { data: { chunked_upload_id: string } }).data.chunked_upload_id;
  for (let i = 0; i < chunks; i += 1) {
    const res = await call(port, env.host, env.v2, 'PUT', `/api/v2/upload/chunked/${encodeURIComponent(id)}`, {
      chunk,
      pointer: i * CHUNK,
    });
    if (res.status !== 200) throw new Error(`chunk ${i}: ${res.status}`);
  }
};
await upload(20);
const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.setSamplingInterval', { interval: 100 });
await session.post('Profiler.start');
const c0 = process.cpuUsage();
const t0 = performance.now();
await upload(CHUNKS);
const ms = performance.now() - t0;
const cpu = process.cpuUsage(c0);
const { profile } = await session.post('Profiler.stop');
writeFileSync(out, JSON.stringify(profile));
console.log(
  `${CHUNKS} chunks: ${(ms / CHUNKS).toFixed(2)} ms each, process CPU ${((cpu.user + cpu.system) / 1000 / CHUNKS).toFixed(2)} ms per chunk (client and service; profiler on)`,
);
await bench.stop();
process.exit(0);
