import { readFileSync } from 'node:fs';
// the in-process renderer: the baseline only (the service reaches it through render processes alone)
import { runJob } from '../packages/domain/src/rendering/render-jobs.mjs';
import { type RenderJob, RenderPool } from '@bo/domain/rendering/render-pool';
import { interleavedRounds, type LoadResult, row } from './support/load.js';
import { record } from './support/summary.js';
import { ordinaryFiles, RenderCpu } from './support/thumbnail-files.js';

/**
 * Thumbnail throughput on ordinary files (issue 28, section 2): a 6-megapixel JPEG photo, a
 * PNG screenshot and a one-page PDF (an invoice as the service renders it), 256 pixels, the
 * files taken in turn, `BENCH_THUMBNAIL_CONCURRENCY` jobs at once (default 2: one
 * environment's share of the render processes), with no thumbnail cache: every job renders.
 * Two sides in interleaved rounds (BENCH_ROUNDS, default 3, of BENCH_DURATION seconds,
 * default 6): the bounded render processes the service uses (RenderPool, warm, with its
 * memory and time limits and its per-environment queue; the bytes go over IPC) against the
 * same renderers called in this process (runJob: the in-process rendering the service did
 * before, reachable from no request). Target: at least 0.8 of the in-process throughput.
 */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_DURATION ?? 6);
const CONCURRENCY = Number(process.env.BENCH_THUMBNAIL_CONCURRENCY ?? 2);
const SIZE = 256;

/** `CONCURRENCY` loops taking the files in turn for `seconds`: jobs per second and per-job latency */
async function measure(
  files: { job: RenderJob }[],
  seconds: number,
  render: (job: RenderJob) => Promise<boolean>,
  cpu?: { meter: RenderCpu; tally: CpuTally },
): Promise<LoadResult> {
  const before = cpu?.meter.now();
  const latencies: number[] = [];
  let failures = 0;
  let next = 0;
  const end = performance.now() + seconds * 1000;
  const loop = async () => {
    while (performance.now() < end) {
      const file = files[next++ % files.length] as { job: RenderJob };
      const started = performance.now();
      if (await render(file.job)) latencies.push(performance.now() - started);
      else failures += 1;
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, loop));
  const elapsed = (performance.now() - started) / 1000;
  if (cpu && before) {
    const after = cpu.meter.now();
    cpu.tally.own += after.own - before.own;
    cpu.tally.render += after.render - before.render;
    cpu.tally.jobs += latencies.length + failures;
    cpu.tally.started += after.processes - before.processes;
  }
  const sorted = latencies.sort((a, b) => a - b);
  const at = (q: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0);
  return { requestsPerSecond: latencies.length / elapsed, p50: at(0.5), p99: at(0.99), non2xx: failures, errors: 0 };
}

/** processor time a side spent, in this process and in the render processes, over its jobs */
interface CpuTally {
  own: number;
  render: number;
  jobs: number;
  /** render processes started meanwhile (replaced ones) */
  started: number;
}

function rssMb(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

export default async function run(): Promise<void> {
  const files = await ordinaryFiles(SIZE);
  const pool = new RenderPool();
  const meter = new RenderCpu(() => pool.processIds());
  const tallies = {
    base: { own: 0, render: 0, jobs: 0, started: 0 },
    pool: { own: 0, render: 0, jobs: 0, started: 0 },
  };
  try {
    const inProcess = async (job: RenderJob) => (await runJob(job)).ok;
    const bounded = async (job: RenderJob) => (await pool.run('bench', job)).ok;
    // both warm: the renderers loaded, the render processes started
    for (const f of files) {
      if (!(await inProcess(f.job)) || !(await bounded(f.job)))
        throw new Error(`a thumbnail of ${JSON.stringify(f.job.kind)} failed`);
    }
    await measure(files, 1, inProcess);
    await measure(files, 1, bounded);
    const { base, pool: sided } = await interleavedRounds(ROUNDS, {
      base: () => measure(files, SECONDS, inProcess, { meter, tally: tallies.base }),
      pool: () => measure(files, SECONDS, bounded, { meter, tally: tallies.pool }),
    });
    console.log(
      `thumbnails of ${SIZE} px, files in turn: ${files.map((f) => f.name).join('; ')}; ${CONCURRENCY} at once; ` +
        `${ROUNDS} interleaved rounds of ${SECONDS} s (jobs/s the mean, p99 the median)`,
    );
    console.log(row('in-process rendering (baseline)', base).replace('req/s', 'jobs/s'));
    console.log(row('bounded render processes', sided).replace('req/s', 'jobs/s'));
    const perJob = (t: CpuTally) =>
      `${((t.own + t.render) / t.jobs).toFixed(1)} ms a job (this process ${(t.own / t.jobs).toFixed(1)}, ` +
      `render processes ${(t.render / t.jobs).toFixed(1)}; ${t.started} render processes started)`;
    console.log(`processor time, in-process side: ${perJob(tallies.base)}`);
    console.log(`processor time, bounded side:    ${perJob(tallies.pool)}`);
    const pids = pool.processIds();
    console.log(
      `render processes: ${pids.length}, resident ${pids.map((p) => `${rssMb(p).toFixed(0)} MB`).join(', ')}; ` +
        `each limited to ${pool.limits.memoryMb} MB, ${pool.limits.timeoutMs} ms a job`,
    );
    const ratio = sided.requestsPerSecond / base.requestsPerSecond;
    console.log(`ratio (bounded / in-process): throughput ${ratio.toFixed(2)}   (target: >= 0.8)`);
    record({
      benchmark: 'thumbnails',
      figure: `thumbnails/s, JPEG + PNG + one-page PDF, ${CONCURRENCY} at once`,
      value: `${sided.requestsPerSecond.toFixed(1)} jobs/s, p99 ${sided.p99} ms`,
      baseline: `${base.requestsPerSecond.toFixed(1)} jobs/s in process, p99 ${base.p99} ms`,
      ratio,
      atLeast: 0.8,
    });
  } finally {
    meter.stop();
    await pool.close();
  }
}
