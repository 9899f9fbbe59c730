import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { insertOrganizations, startBenchService } from './support/service.js';
import { record } from './support/summary.js';

/**
 * `pnpm bench environment-copy` (issue 29, section 6): `admin environment copy` of an environment
 * of BENCH_COPY_RECORDS rows (default 100,000: organizations and their visiting addresses, half
 * each), run as the CLI runs, in a child process, beside the copy of one tenth of it. Reports
 * records/s and the child's peak RSS (VmHWM) for both: with a batch of 500 rows the peak must not
 * grow with the size of the environment (the "flat memory"; target: the large copy's peak
 * at most 1.25× the small one's).
 */
const RECORDS = Number(process.env.BENCH_COPY_RECORDS ?? 100_000);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

interface CopyRun {
  /** rows copied, and the copy's own time (the process's start not counted), as the CLI reports them */
  rows: number;
  seconds: number;
  peakRssMb: number;
}

function copyInChild(databaseUrl: string, dataDir: string, from: string, to: string): Promise<CopyRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'packages/domain/src/cli/admin.ts', 'environment', 'copy', from, to, '--json'],
      {
        cwd: root,
        env: { ...process.env, DATABASE_URL: databaseUrl, DATA_DIR: dataDir },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let peak = 0;
    let err = '';
    let out = '';
    child.stdout?.on('data', (c: Buffer) => {
      out += c.toString();
    });
    child.stderr?.on('data', (c: Buffer) => {
      err = (err + c.toString()).slice(-2000);
    });
    // VmHWM is the process's high-water mark of resident memory: the last reading before exit is its peak
    const timer = setInterval(() => {
      try {
        const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
        if (m) peak = Math.max(peak, Number(m[1]) / 1024);
      } catch {
        // exited between two readings
      }
    }, 100);
    child.once('exit', (code) => {
      clearInterval(timer);
      if (code !== 0) reject(new Error(`copy exited with ${code}: ${err}`));
      else {
        const result = JSON.parse(out.trim().split('\n').pop() ?? '{}') as { rows: number; seconds: number };
        resolve({ rows: result.rows, seconds: result.seconds, peakRssMb: peak });
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
    console.log(
      `copy of ${(RECORDS / 10).toLocaleString('en')} records: ${s.seconds.toFixed(1)} s, peak RSS ${s.peakRssMb.toFixed(0)} MB`,
    );
    console.log(
      `copy of ${RECORDS.toLocaleString('en')} records: ${l.seconds.toFixed(1)} s, peak RSS ${l.peakRssMb.toFixed(0)} MB`,
    );
    console.log(`${rate.toFixed(0)} records/s (${l.rows.toLocaleString('en')} rows, reference data included)`);
    record({
      benchmark: 'environment-copy',
      figure: `admin environment copy, ${RECORDS.toLocaleString('en')} records: peak RSS`,
      value: `${l.peakRssMb.toFixed(0)} MB, ${rate.toFixed(0)} records/s`,
      baseline: `${s.peakRssMb.toFixed(0)} MB at ${(RECORDS / 10).toLocaleString('en')} records`,
      ratio: l.peakRssMb / Math.max(1, s.peakRssMb),
      atMost: 1.25,
    });
  } finally {
    await bench.stop();
  }
}
