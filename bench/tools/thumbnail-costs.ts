import { readFileSync } from 'node:fs';
import { type RenderJob, RenderPool } from '@bo/domain/rendering/render-pool';
import { runJob } from '../../packages/domain/src/rendering/render-jobs.mjs';
import { ordinaryFiles } from '../support/thumbnail-files.js';

/**
 * Profiling aid (not a benchmark): where a thumbnail's time goes, per file and per side.
 * For each file, JOBS jobs (default 40) one at a time, then CONCURRENCY (default 2) at once
 * over the files in turn: wall time per job, this process's CPU per job, the render
 * processes' CPU per job (from /proc, summed over every render process seen, replaced
 * ones included), the bytes sent each way, and how many render processes were started.
 *   npx tsx bench/tools/thumbnail-costs.ts
 * With CPU_PROF=1 the render processes write V8 CPU profiles to CPU_PROF_DIR (default /tmp).
 */
const JOBS = Number(process.env.JOBS ?? 40);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 2);
const files = await ordinaryFiles(256);

function cpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(f[11]) + Number(f[12])) * 1000) / 100;
  } catch {
    return Number.NaN;
  }
}

const pool = new RenderPool();
/** every render process seen, with its CPU when first seen (a process that ended is counted at its last reading) */
const seen = new Map<number, { first: number; last: number }>();
const sample = () => {
  for (const pid of pool.processIds()) {
    const c = cpuMs(pid);
    if (Number.isNaN(c)) continue;
    const s = seen.get(pid);
    if (s) s.last = c;
    else seen.set(pid, { first: c, last: c });
  }
};
const sampler = setInterval(sample, 20);
const childCpu = () => {
  sample();
  let t = 0;
  for (const s of seen.values()) t += s.last;
  return t;
};

const inProcess = async (job: RenderJob) => runJob(job);
const bounded = async (job: RenderJob) => {
  const r = await pool.run('bench', job);
  return r.ok ? { ok: true as const, bytes: r.bytes } : { ok: false as const, reason: r.reason, message: r.message };
};

type Render = (job: RenderJob) => Promise<{ ok: true; bytes: Uint8Array } | { ok: false; reason: string; message: string }>;

async function measure(label: string, jobs: RenderJob[], render: Render, concurrency: number) {
  const started = seen.size;
  const c0 = process.cpuUsage();
  const k0 = childCpu();
  const t0 = performance.now();
  let sent = 0;
  let back = 0;
  let next = 0;
  const loop = async () => {
    while (next < jobs.length) {
      const job = jobs[next++] as RenderJob;
      if (job.kind !== 'invoice-pdf') sent += job.bytes.byteLength;
      const r = await render(job);
      if (!r.ok) throw new Error(`${job.kind}: ${JSON.stringify(r)}`);
      back += r.bytes.byteLength;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, loop));
  const wall = performance.now() - t0;
  const c = process.cpuUsage(c0);
  const k = childCpu() - k0;
  const n = jobs.length;
  console.log(
    `${label.padEnd(44)} wall ${(wall / n).toFixed(1).padStart(6)} ms/job  ${((n / wall) * 1000).toFixed(1).padStart(5)} jobs/s  ` +
      `this process CPU ${((c.user + c.system) / 1000 / n).toFixed(1).padStart(6)} ms/job  render processes CPU ${(k / n).toFixed(1).padStart(6)} ms/job  ` +
      `sent ${(sent / n / 1e3).toFixed(0)} kB/job, back ${(back / n / 1e3).toFixed(0)} kB/job  processes started ${seen.size - started}`,
  );
}

// warm both
for (const f of files) {
  await inProcess(f.job);
  await bounded(f.job);
  await bounded(f.job);
}
console.log(`load average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);
for (const f of process.env.MIXED_ONLY ? [] : files) {
  const jobs = Array.from({ length: JOBS }, () => f.job);
  await measure(`${f.name.split(' ')[0]} in process, 1 at once`, jobs, inProcess, 1);
  await measure(`${f.name.split(' ')[0]} bounded, 1 at once`, jobs, bounded, 1);
  await measure(`${f.name.split(' ')[0]} in process, ${CONCURRENCY} at once`, jobs, inProcess, CONCURRENCY);
  await measure(`${f.name.split(' ')[0]} bounded, ${CONCURRENCY} at once`, jobs, bounded, CONCURRENCY);
}
const mixed = Array.from({ length: JOBS * 3 }, (_, i) => (files[i % files.length] as { job: RenderJob }).job);
for (let round = 0; round < Number(process.env.ROUNDS ?? 2); round += 1) {
  await measure(`mixed in process, ${CONCURRENCY} at once`, mixed, inProcess, CONCURRENCY);
  await measure(`mixed bounded, ${CONCURRENCY} at once`, mixed, bounded, CONCURRENCY);
}
console.log(`load average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);
clearInterval(sampler);
await pool.close();
process.exit(0);
