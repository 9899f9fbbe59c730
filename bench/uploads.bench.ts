import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rm } from 'node:fs/promises';
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { request } from 'node:https';
import { loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { processMemory, startServerProcess } from './support/server-process.js';
import { agent, call, createBenchDatabase, createToken } from './support/setup.js';
import { record } from './support/summary.js';

/** POST storage/uploadstream: the bytes as the request body, written as the socket drains (no buffering here). */
function streamUpload(
  port: number,
  host: string,
  headers: Record<string, string>,
  size: number,
  piece: (i: number) => Buffer,
  pieces: number,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/api/v2/storage/uploadstream?file_name=big.bin',
        headers: { ...headers, host, 'content-type': 'application/octet-stream', 'content-length': String(size) },
        agent,
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          body += c;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    let i = 0;
    const write = () => {
      while (i < pieces) {
        const ok = req.write(piece(i));
        i += 1;
        if (!ok) {
          req.once('drain', write);
          return;
        }
      }
      req.end();
    };
    write();
  });
}

/** A JSON request over HTTPS or plain HTTP with keep-alive: the one client of the service and of the baselines. */
function send(target: ChunkTarget, method: string, p: string, body: unknown): Promise<{ status: number; body: unknown }> {
  const payload = Buffer.from(JSON.stringify(body));
  const begin = target.plain ? httpRequest : request;
  return new Promise((resolve, reject) => {
    const req = begin(
      {
        host: '127.0.0.1',
        port: target.port,
        method,
        path: p,
        agent: target.plain ? plainAgent : agent,
        headers: {
          host: target.host,
          ...target.headers,
          'content-type': 'application/json',
          'content-length': String(payload.length),
        },
      },
      (res) => {
        const parts: Buffer[] = [];
        res.on('data', (c: Buffer) => parts.push(c));
        res.on('end', () => {
          const text = Buffer.concat(parts).toString('utf8');
          resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

const plainAgent = new HttpAgent({ keepAlive: true, maxSockets: 16 });

interface ChunkTarget {
  port: number;
  host: string;
  headers: Record<string, string>;
  plain?: boolean;
}

/**
 * (a) A 200 MB upload in 384,000-byte chunks (512,000 characters of base64)
 * through v2, and the same upload through a baseline receiver that speaks the
 * same protocol without a database (bench/support/chunk-receiver-process.ts),
 * over HTTPS and over plain HTTP (the TLS cost), all driven by the same client
 * code; plus the server's peak RSS beside its idle RSS. The server runs in a
 * child process (the load generator's memory does not count); its RSS is
 * sampled from /proc every 20 ms, and its V8 heap in use is shown beside it,
 * with the RSS after a forced full GC at the end, so that growth that is only
 * uncollected garbage can be told from live memory. The baseline runs before
 * and after the service; the faster of its two runs is the baseline.
 */
const FILE_SIZE = Number(process.env.BENCH_UPLOAD_MB ?? 200) * 1024 * 1024;
const CHUNK = 384_000; // 512,000 characters of base64: the chunk limit

/** A baseline receiver in a child process; `plain` serves plain HTTP. */
async function startReceiver(dataDir: string, plain: boolean): Promise<{ port: number; pid: number; stop(): Promise<void> }> {
  const dir = path.join(dataDir, plain ? 'receiver-plain' : 'receiver-tls');
  await mkdir(dir, { recursive: true });
  const tls = path.join(dataDir, 'tls');
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'bench/support/chunk-receiver-process.ts',
      dir,
      path.join(tls, 'cert.pem'),
      path.join(tls, 'key.pem'),
      ...(plain ? ['--plain'] : []),
    ],
    { cwd: root, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
  );
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (m) => resolve((m as { port: number }).port));
    child.once('exit', (code) => reject(new Error(`the baseline receiver exited ${code}`)));
  });
  return {
    port,
    pid: child.pid as number,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** CPU seconds (user + system) a process has used, from /proc: less sensitive to a loaded machine than wall time */
async function cpuSeconds(pid: number): Promise<number> {
  const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).replace(/^.*\) /, '').split(' ');
  // after the command: state is field 3, utime 14 and stime 15, in clock ticks (100 per second on Linux)
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export default async function uploadsBench(): Promise<void> {
  const db = await createBenchDatabase();
  const server = await startServerProcess(
    db.url,
    db.dataDir,
    { RUN_WORKER: 'false' },
    process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [],
  );
  const { child, port } = server;
  // the service has written its self-signed pair under DATA_DIR/tls: the baseline serves the same certificate
  const receiver = await startReceiver(db.dataDir, false);
  const plainReceiver = await startReceiver(db.dataDir, true);
  try {
    console.log(
      `load average before: ${loadavg()
        .map((x) => x.toFixed(2))
        .join(' ')}`,
    );
    const token = await createToken(db.url, 'bench');
    const headers = { 'authentication-key': token.key, 'authentication-secret': token.secret };
    const host = 'bench.localhost';
    // the same pseudo-random bytes for every run, made chunk by chunk
    const seed = randomBytes(CHUNK);
    const chunkAt = (i: number) => {
      const b = Buffer.from(seed);
      b.writeUInt32BE(i, 0);
      return b;
    };
    const chunks = Math.ceil(FILE_SIZE / CHUNK);
    const sizeOf = (i: number) => Math.min(CHUNK, FILE_SIZE - i * CHUNK);

    /** the whole file through `target` in chunks, each PUT after the answer to the last; answers the seconds */
    const chunkedUpload = async (target: ChunkTarget): Promise<number> => {
      const started = performance.now();
      const { body } = await send(target, 'POST', '/api/v2/upload/chunked', { file_name: 'big.bin', file_size: FILE_SIZE });
      const id = (body as { data: { chunked_upload_id: string } }).data.chunked_upload_id;
      let state = '';
      for (let i = 0; i < chunks; i += 1) {
        const res = await send(target, 'PUT', `/api/v2/upload/chunked/${encodeURIComponent(id)}`, {
          chunk: chunkAt(i).subarray(0, sizeOf(i)).toString('base64'),
          pointer: i * CHUNK,
        });
        if (res.status !== 200) throw new Error(`chunk ${i}: ${res.status} ${JSON.stringify(res.body)}`);
        state = (res.body as { data: { state: string } }).data.state;
      }
      if (state !== 'done') throw new Error('the upload did not finish');
      return (performance.now() - started) / 1000;
    };
    const service: ChunkTarget = { port, host, headers };
    const baseline: ChunkTarget = { port: receiver.port, host, headers };
    const plainBaseline: ChunkTarget = { port: plainReceiver.port, host, headers, plain: true };

    // baseline: a raw write of the same bytes to the same disk
    const rawFile = path.join(db.dataDir, 'raw.bin');
    const rawStart = performance.now();
    const fh = await open(rawFile, 'w');
    for (let i = 0; i < chunks; i += 1) await fh.write(chunkAt(i).subarray(0, sizeOf(i)), 0, sizeOf(i), i * CHUNK);
    await fh.close();
    const rawSeconds = (performance.now() - rawStart) / 1000;
    await rm(rawFile);

    // the baseline receivers, once before the service (and the HTTPS one once after)
    const baselineCpu0 = await cpuSeconds(receiver.pid);
    const baselineBefore = await chunkedUpload(baseline);
    const baselineCpu = (await cpuSeconds(receiver.pid)) - baselineCpu0;
    const plainSeconds = await chunkedUpload(plainBaseline);

    // warm up, then read the idle RSS
    await call(port, host, headers, 'GET', '/api/v2/documents/documenttype');
    await new Promise((r) => setTimeout(r, 500));
    const idle = await processMemory(child.pid as number);
    const idleHeap = (await server.memoryUsage()).heapUsed;

    // sample the server's RSS while it works: the peak of this upload, not of its start-up
    let peak = idle.rss;
    let peakHeap = idleHeap;
    let ticks = 0;
    const sampler = setInterval(() => {
      processMemory(child.pid as number).then(
        (m) => {
          peak = Math.max(peak, m.rss);
        },
        () => {},
      );
      // the heap through IPC, less often: it is a message to the server's event loop
      ticks += 1;
      if (ticks % 10 === 0)
        server.memoryUsage().then(
          (m) => {
            peakHeap = Math.max(peakHeap, m.heapUsed);
          },
          () => {},
        );
    }, 20);
    const loadDuring = loadavg()[0] as number;
    const serviceCpu0 = await cpuSeconds(child.pid as number);
    const uploadSeconds = await chunkedUpload(service);
    const serviceCpu = (await cpuSeconds(child.pid as number)) - serviceCpu0;
    clearInterval(sampler);
    peak = Math.max(peak, (await processMemory(child.pid as number)).rss);
    const afterGc = await server.memoryUsage(true);
    const baselineAfter = await chunkedUpload(baseline);
    const baselineSeconds = Math.min(baselineBefore, baselineAfter);

    const mb = FILE_SIZE / 1024 / 1024;
    const growth = (peak - idle.rss) / 1024 / 1024;
    const ratio = baselineSeconds / uploadSeconds;
    console.log(`upload of ${mb} MB in ${chunks} chunks of ${CHUNK} bytes (${Math.ceil((CHUNK * 4) / 3)} base64 characters)`);
    console.log(`  through v2:        ${(mb / uploadSeconds).toFixed(1)} MB/s (${uploadSeconds.toFixed(1)} s)`);
    console.log(
      `  baseline receiver: ${(mb / baselineSeconds).toFixed(1)} MB/s (HTTPS, JSON, base64, append; no database; runs ${baselineBefore.toFixed(2)} s before, ${baselineAfter.toFixed(2)} s after)`,
    );
    console.log(
      `  ratio:             ${ratio.toFixed(3)} of the baseline (target: at least 0.5) ${ratio >= 0.5 ? 'OK' : 'UNDER'}`,
    );
    console.log(
      `  baseline, plain HTTP: ${(mb / plainSeconds).toFixed(1)} MB/s: TLS costs ${(((baselineSeconds - plainSeconds) / chunks) * 1000).toFixed(2)} ms per chunk, both ends`,
    );
    console.log(
      `  per chunk:         ${((uploadSeconds / chunks) * 1000).toFixed(2)} ms through v2, ${((baselineSeconds / chunks) * 1000).toFixed(2)} ms baseline`,
    );
    console.log(
      `  CPU per chunk:     ${((serviceCpu / chunks) * 1000).toFixed(2)} ms in the service process, ${((baselineCpu / chunks) * 1000).toFixed(2)} ms in the baseline's (user + system; PostgreSQL's own not counted)`,
    );
    console.log(
      `  raw disk write:    ${(mb / rawSeconds).toFixed(1)} MB/s (${rawSeconds.toFixed(2)} s), ${(rawSeconds / uploadSeconds).toFixed(3)} of raw`,
    );
    console.log(`  server RSS idle:   ${(idle.rss / 1024 / 1024).toFixed(1)} MB`);
    console.log(`  server RSS peak:   ${(peak / 1024 / 1024).toFixed(1)} MB (sampled every 20 ms during the upload)`);
    console.log(`  growth:            ${growth.toFixed(1)} MB (target: under 64 MB) ${growth < 64 ? 'OK' : 'OVER'}`);
    const mib = (n: number) => (n / 1024 / 1024).toFixed(1);
    console.log(`  V8 heap in use:    idle ${mib(idleHeap)} MB, peak sampled ${mib(peakHeap)} MB (every 200 ms)`);
    console.log(
      `  after a full GC:   RSS ${mib(afterGc.rss)} MB, heap in use ${mib(afterGc.heapUsed)} MB, external + array buffers ${mib(afterGc.external)} MB`,
    );
    console.log(`  load average:      ${loadDuring.toFixed(2)} at the start of the service's run`);

    // (b) the same bytes through POST storage/uploadstream: the body is the file, streamed to disk
    const streamIdle = await processMemory(child.pid as number);
    let streamPeak = streamIdle.rss;
    const streamSampler = setInterval(() => {
      processMemory(child.pid as number).then(
        (m) => {
          streamPeak = Math.max(streamPeak, m.rss);
        },
        () => {},
      );
    }, 20);
    const streamStarted = performance.now();
    const streamed = await streamUpload(port, host, headers, FILE_SIZE, (i) => chunkAt(i).subarray(0, sizeOf(i)), chunks);
    const streamSeconds = (performance.now() - streamStarted) / 1000;
    clearInterval(streamSampler);
    streamPeak = Math.max(streamPeak, (await processMemory(child.pid as number)).rss);
    if (streamed.status !== 200) throw new Error(`uploadstream: ${streamed.status} ${streamed.body}`);
    const streamedState = (JSON.parse(streamed.body) as { data: { state: string; upload_queue_id?: string } }).data;
    if (streamedState.state !== 'done' || !streamedState.upload_queue_id) throw new Error('the streamed upload did not finish');
    const streamGrowth = (streamPeak - streamIdle.rss) / 1024 / 1024;
    console.log(`upload of ${mb} MB as one streamed body (POST storage/uploadstream)`);
    console.log(`  through v2:        ${(mb / streamSeconds).toFixed(1)} MB/s (${streamSeconds.toFixed(1)} s)`);
    console.log(`  ratio:             ${(mb / streamSeconds / (mb / rawSeconds)).toFixed(3)} of raw`);
    console.log(`  vs chunked:        ${(uploadSeconds / streamSeconds).toFixed(1)}× the chunked throughput`);
    console.log(`  server RSS before: ${mib(streamIdle.rss)} MB, peak ${mib(streamPeak)} MB`);
    console.log(`  growth:            ${streamGrowth.toFixed(1)} MB (target: under 64 MB) ${streamGrowth < 64 ? 'OK' : 'OVER'}`);
    record({
      benchmark: 'uploads',
      figure: `chunked upload of ${mb} MB, against a receiver of the same protocol without a database`,
      value: `${(mb / uploadSeconds).toFixed(1)} MB/s, RSS +${growth.toFixed(0)} MB`,
      baseline: `${(mb / baselineSeconds).toFixed(1)} MB/s`,
      ratio,
      atLeast: 0.5,
    });
    record({
      benchmark: 'uploads',
      figure: `uploadstream of ${mb} MB, against a raw disk write`,
      value: `${(mb / streamSeconds).toFixed(1)} MB/s, RSS +${streamGrowth.toFixed(0)} MB`,
      baseline: `${(mb / rawSeconds).toFixed(0)} MB/s`,
      ratio: rawSeconds / streamSeconds,
    });
  } finally {
    await receiver.stop();
    await plainReceiver.stop();
    await server.stop();
    await db.drop();
  }
}
