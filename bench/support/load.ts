import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { loadAverage } from './summary.js';

export interface LoadResult {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

const require = createRequire(import.meta.url);
const AUTOCANNON_CLI = path.join(path.dirname(require.resolve('autocannon/package.json')), 'autocannon.js');

/**
 * Drives one URL with `connections` concurrent keep-alive connections for `seconds`,
 * from a separate process so that the load generator does not share the server's event loop.
 */
export async function load(opts: {
  url: string;
  headers?: Record<string, string>;
  connections?: number;
  seconds?: number;
  method?: string;
  body?: string;
  /** replace `[<id>]` in the body with a fresh id per request (autocannon -I), e.g. for unique names */
  idReplacement?: boolean;
  /** a header with a fresh value per request (an Idempotency-Key); `[<id>]` in the body gets the same value */
  uniqueHeader?: string;
}): Promise<LoadResult> {
  const args = opts.uniqueHeader
    ? [
        path.join(path.dirname(new URL(import.meta.url).pathname), 'keyed-load.cjs'),
        JSON.stringify({
          url: opts.url,
          connections: opts.connections ?? 10,
          seconds: opts.seconds ?? 8,
          method: opts.method ?? 'GET',
          headers: opts.headers ?? {},
          body: opts.body ?? '',
          uniqueHeader: opts.uniqueHeader,
        }),
      ]
    : keyless(opts);
  const out = await new Promise<string>((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      stdio: ['ignore', 'pipe', 'ignore'],
      env: { ...process.env, AUTOCANNON_PATH: path.dirname(require.resolve('autocannon/package.json')) },
    });
    let text = '';
    child.stdout.on('data', (c: Buffer) => {
      text += c.toString('utf8');
    });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(text) : reject(new Error(`autocannon exited with ${code}`))));
  });
  return resultOf(out);
}

function keyless(opts: Parameters<typeof load>[0]): string[] {
  const args = [AUTOCANNON_CLI, '--json', '-c', String(opts.connections ?? 10), '-d', String(opts.seconds ?? 8)];
  for (const [k, v] of Object.entries(opts.headers ?? {})) args.push('-H', `${k}=${v}`);
  if (opts.method) args.push('-m', opts.method);
  if (opts.body) args.push('-b', opts.body);
  if (opts.idReplacement) args.push('-I');
  args.push(opts.url);
  return args;
}

function resultOf(out: string): LoadResult {
  const result = JSON.parse(out) as {
    requests: { average: number };
    latency: { p50: number; p99: number };
    non2xx: number;
    errors: number;
  };
  return {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

export function row(label: string, r: LoadResult): string {
  return `${label.padEnd(44)} ${r.requestsPerSecond.toFixed(0).padStart(7)} req/s   p50 ${String(r.p50).padStart(4)} ms   p99 ${String(r.p99).padStart(4)} ms   non-2xx ${r.non2xx}  errors ${r.errors}`;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
};

/** req/s as the mean of the rounds; p50 and p99 as the median of the rounds (one noisy round does not decide) */
export function combineRounds(rs: LoadResult[]): LoadResult {
  return {
    requestsPerSecond: rs.reduce((s, r) => s + r.requestsPerSecond, 0) / rs.length,
    p50: median(rs.map((r) => r.p50)),
    p99: median(rs.map((r) => r.p99)),
    non2xx: rs.reduce((s, r) => s + r.non2xx, 0),
    errors: rs.reduce((s, r) => s + r.errors, 0),
  };
}

/**
 * Measures each side once per round, in an order turned round every round (a, b, c; c, b, a; …),
 * and combines each side's rounds: on a shared machine whose speed drifts by tens of percent
 * within minutes, a service and its baseline measured once each, minutes apart, give a ratio
 * that says more about the drift than about the two.
 */
export async function interleavedRounds<K extends string>(
  rounds: number,
  sides: Record<K, () => Promise<LoadResult>>,
): Promise<Record<K, LoadResult>> {
  const names = Object.keys(sides) as K[];
  const seen = new Map<K, LoadResult[]>(names.map((k) => [k, []]));
  for (let round = 1; round <= rounds; round += 1) {
    console.log(`  round ${round}/${rounds}: ${names.join(', ')}   (load average ${loadAverage()})`);
    for (const k of round % 2 ? names : [...names].reverse()) seen.get(k)?.push(await sides[k]());
  }
  return Object.fromEntries(names.map((k) => [k, combineRounds(seen.get(k) ?? [])])) as Record<K, LoadResult>;
}
