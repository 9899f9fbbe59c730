import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { renderInvoicePdf } from '@bo/domain/invoices/pdf/render-invoice-pdf';
// the in-process renderer: the baseline only (the service reaches it through render processes alone)
import { runJob } from '../packages/domain/src/rendering/render-jobs.mjs';
import { type RenderJob, RenderPool } from '@bo/domain/rendering/render-pool';
import { DEFAULT_MAX_IMAGE_PIXELS } from '@bo/domain/uploads/upload-config';
import { interleavedRounds, type LoadResult, row } from './support/load.js';
import { record } from './support/summary.js';

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

async function ordinaryFiles(): Promise<{ name: string; job: RenderJob }[]> {
  // a photo: smooth colour (a small random picture enlarged) with grain, about 1.2 MB as a camera's JPEG
  const width = 3000;
  const height = 2000;
  const smooth = await sharp(randomBytes(300 * 200 * 3), { raw: { width: 300, height: 200, channels: 3 } })
    .resize(width, height, { kernel: 'cubic' })
    .raw()
    .toBuffer();
  const grain = randomBytes(smooth.length);
  for (let i = 0; i < smooth.length; i += 1)
    smooth[i] = Math.min(255, ((smooth[i] as number) * 7 + (grain[i] as number) / 8) >> 3);
  const photo = await sharp(smooth, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 85 })
    .toBuffer();
  const screen = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="1440" height="900"><rect width="1440" height="900" fill="#f4f4f4"/>` +
      `<rect x="0" y="0" width="1440" height="64" fill="#1d4e89"/><rect x="40" y="120" width="600" height="700" fill="#fff" stroke="#ccc"/>` +
      `<text x="60" y="180" font-size="32" font-family="sans-serif">Quarterly figures</text>` +
      Array.from(
        { length: 12 },
        (_, i) => `<rect x="${700 + i * 55}" y="${800 - i * 50}" width="40" height="${i * 50}" fill="#3a7"/>`,
      ).join('') +
      '</svg>',
  );
  const screenshot = await sharp(screen).png().toBuffer();
  const pdf = await renderInvoicePdf({
    title: 'Invoice',
    invoiceNumber: 'F2026-0042',
    invoiceDate: '2026-03-31',
    dueDate: '2026-04-30',
    company: {
      name: 'Acme B.V.',
      address: ['Main street 1', '1234 AB Utrecht', 'NL'],
      vatNumber: 'NL001',
      bankAccount: 'NL00BANK0123456789',
    },
    debtor: { name: 'Globex', address: ['Side street 2', '5678 CD Delft'] },
    subject: 'Work in March',
    reference: 'PO-7',
    lines: Array.from({ length: 12 }, (_, i) => ({
      description: `Consultancy, week ${i + 1}`,
      quantity: '8.0000',
      price: '95.0000',
      amount: '760.00',
      vatPercentage: '21.0000',
    })),
    vatByClass: [{ percentage: '21.0000', base: '9120.00', vat: '1915.20' }],
    totalExcl: '9120.00',
    totalVat: '1915.20',
    totalIncl: '11035.20',
    creditOf: null,
  });
  const maxPixels = DEFAULT_MAX_IMAGE_PIXELS;
  return [
    {
      name: `photo.jpg (${(photo.length / 1e6).toFixed(1)} MB, ${width} × ${height})`,
      job: { kind: 'image-thumbnail', bytes: photo, size: SIZE, maxPixels },
    },
    {
      name: `screenshot.png (${(screenshot.length / 1e3).toFixed(0)} kB, 1440 × 900)`,
      job: { kind: 'image-thumbnail', bytes: screenshot, size: SIZE, maxPixels },
    },
    {
      name: `invoice.pdf (${(pdf.length / 1e3).toFixed(0)} kB, one page)`,
      job: { kind: 'pdf-thumbnail', bytes: pdf, size: SIZE, maxPixels, maxPaints: 100_000, maxContentBytes: 64 * 1024 * 1024 },
    },
  ];
}

/** `CONCURRENCY` loops taking the files in turn for `seconds`: jobs per second and per-job latency */
async function measure(
  files: { job: RenderJob }[],
  seconds: number,
  render: (job: RenderJob) => Promise<boolean>,
): Promise<LoadResult> {
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
  const sorted = latencies.sort((a, b) => a - b);
  const at = (q: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0);
  return { requestsPerSecond: latencies.length / elapsed, p50: at(0.5), p99: at(0.99), non2xx: failures, errors: 0 };
}

function rssMb(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

export default async function run(): Promise<void> {
  const files = await ordinaryFiles();
  const pool = new RenderPool();
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
      base: () => measure(files, SECONDS, inProcess),
      pool: () => measure(files, SECONDS, bounded),
    });
    console.log(
      `thumbnails of ${SIZE} px, files in turn: ${files.map((f) => f.name).join('; ')}; ${CONCURRENCY} at once; ` +
        `${ROUNDS} interleaved rounds of ${SECONDS} s (jobs/s the mean, p99 the median)`,
    );
    console.log(row('in-process rendering (baseline)', base).replace('req/s', 'jobs/s'));
    console.log(row('bounded render processes', sided).replace('req/s', 'jobs/s'));
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
    await pool.close();
  }
}
