import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { adminArgv, adminNodeFlags, root } from './support/admin-cli.js';
import { insertOrganizations, startBenchService } from './support/service.js';
import { record } from './support/summary.js';

/**
 * `pnpm bench environment-copy` (issue 29, section 6): `admin environment copy` of an environment
 * of BENCH_COPY_RECORDS rows (default 100,000: organizations and their visiting addresses, half
 * each), run as the CLI runs, in a child process, beside the copy of one tenth of it. Reports
 * records/s and the child's peak RSS (VmHWM) for both: with a batch of 500 rows the peak must not
 * grow with the size of the environment (the "flat memory"; target: the large copy's peak
 * at most 1.25× the small one's). The child runs with the node flags of the `admin` script in
 * package.json (its heap bound), as `pnpm admin` runs it. Both peaks hold the process's start
 * (tsx, the domain's modules, the database client), which is most of the small one: the RSS
 * high-water mark when the copy starts (its first progress line, before the first batch) is
 * printed beside each, and the growth during the copy is the peak less that.
 */
const RECORDS = Number(process.env.BENCH_COPY_RECORDS ?? 100_000);

interface CopyRun {
  /** rows copied, and the copy's own time (the process's start not counted), as the CLI reports them */
  rows: number;
  seconds: number;
  peakRssMb: number;
  /** the RSS high-water mark at the copy's first progress line: the process's start, before any batch */
  startRssMb: number;
}

function highWaterMb(pid: number | undefined): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : 0;
}

function copyInChild(databaseUrl: string, dataDir: string, from: string, to: string): Promise<CopyRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, adminArgv(['environment', 'copy', from, to, '--json']), {
      cwd: root,
      env: { ...process.env, DATABASE_URL: databaseUrl, DATA_DIR: dataDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let peak = 0;
    let start = 0;
    let err = '';
    let out = '';
    child.stdout?.on('data', (c: Buffer) => {
      out += c.toString();
    });
    child.stderr?.on('data', (c: Buffer) => {
      err = (err + c.toString()).slice(-2000);
      // the first progress line is drawn once the catalog is read and the rows counted, before any batch
      if (start === 0 && err.includes('copy: ')) {
        try {
          start = highWaterMb(child.pid);
        } catch {
          // exited meanwhile
        }
      }
    });
    // VmHWM is the process's high-water mark of resident memory: the last reading before exit is its peak
    const timer = setInterval(() => {
      try {
        peak = Math.max(peak, highWaterMb(child.pid));
      } catch {
        // exited between two readings
      }
    }, 100);
    child.once('exit', (code) => {
      clearInterval(timer);
      if (code !== 0) reject(new Error(`copy exited with ${code}: ${err}`));
      else {
        const result = JSON.parse(out.trim().split('\n').pop() ?? '{}') as { rows: number; seconds: number };
        resolve({ rows: result.rows, seconds: result.seconds, peakRssMb: peak, startRssMb: start });
      }
    });
  });
}

export default async function run(): Promise<void> {
  const bench = await startBenchService();
  try {
    const small = await bench.environment('copysmall');
    const large = await bench.environment('copylarge');
    console.log(`loading ${RECORDS.toLocaleString('en')} and ${(RECORDS / 10).toLocaleString('en')} records…`);
    await insertOrganizations(bench.pool, large.id, RECORDS / 2);
    await insertOrganizations(bench.pool, small.id, RECORDS / 20);
    // the process's start (tsx, the connection) is in both figures; the small copy shows what it costs
    const s = await copyInChild(bench.url, bench.dataDir, 'copysmall', 'copysmall2');
    const l = await copyInChild(bench.url, bench.dataDir, 'copylarge', 'copylarge2');
    const rate = l.rows / Math.max(0.001, l.seconds);
    const line = (n: number, r: CopyRun) =>
      `copy of ${n.toLocaleString('en')} records: ${r.seconds.toFixed(1)} s, peak RSS ${r.peakRssMb.toFixed(0)} MB ` +
      `(${r.startRssMb.toFixed(0)} MB at its start, +${(r.peakRssMb - r.startRssMb).toFixed(0)} MB during the copy)`;
    console.log(`node flags of the admin script: ${adminNodeFlags().join(' ') || 'none'}`);
    console.log(line(RECORDS / 10, s));
    console.log(line(RECORDS, l));
    console.log(`${rate.toFixed(0)} records/s (${l.rows.toLocaleString('en')} rows, reference data included)`);
    record({
      benchmark: 'environment-copy',
      figure: `admin environment copy, ${RECORDS.toLocaleString('en')} records: peak RSS`,
      value: `${l.peakRssMb.toFixed(0)} MB (+${(l.peakRssMb - l.startRssMb).toFixed(0)} during the copy), ${rate.toFixed(0)} records/s`,
      baseline: `${s.peakRssMb.toFixed(0)} MB (+${(s.peakRssMb - s.startRssMb).toFixed(0)}) at ${(RECORDS / 10).toLocaleString('en')} records`,
      ratio: l.peakRssMb / Math.max(1, s.peakRssMb),
      atMost: 1.25,
    });
  } finally {
    await bench.stop();
  }
}
