import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { open, readFile } from 'node:fs/promises';
import { Agent, createServer, type IncomingMessage, request as httpRequest, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { FilesystemStorage } from '@bo/db';
import { readChunkBody } from '../../apps/api-v2/src/chunk-body.js';
import { decodeBase64Bytes } from '../../packages/domain/src/uploads/base64.js';
import { startServerProcess } from '../support/server-process.js';
import { agent, call, createBenchDatabase, createToken } from '../support/setup.js';
import { startStatementLog } from '../../tests/support/pg-statement-log.js';

/**
 * Where the time of one chunk PUT goes, each cost apart (issue 15, uploads), for
 * a chunk of 384,000 bytes (512,000 characters of base64, the limit):
 *   npx tsx bench/tools/upload-costs.ts
 * In process: JSON.parse of the body, the v2 chunk-body reader, base64 decoders,
 * file writes with and without fsync, express.json against the chunk-body reader
 * over loopback HTTP; then the SQL statements of one PUT, read off the wire by a
 * statement log in front of PostgreSQL (tests/support/pg-statement-log.ts) (pg_stat_statements is not installed).
 * TLS is measured by the benchmark itself (its baseline over HTTPS and plain HTTP).
 * Figures on a shared machine are noise: compare them with each other, in one run.
 */
const CHUNK = 384_000;
const bytes = randomBytes(CHUNK);
const text = bytes.toString('base64');
const body = Buffer.from(JSON.stringify({ chunk: text, pointer: 0 }));
const REPS = Number(process.env.REPS ?? 60);

/** median milliseconds of `fn` over REPS runs (after a few to warm up) */
async function time(fn: (i: number) => unknown): Promise<number> {
  for (let i = 0; i < 5; i += 1) await fn(i);
  const ms: number[] = [];
  for (let i = 0; i < REPS; i += 1) {
    const t = performance.now();
    await fn(i);
    ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  return ms[Math.floor(ms.length / 2)] as number;
}

const line = (what: string, ms: number) => console.log(`  ${what.padEnd(66)} ${ms.toFixed(3)} ms`);
console.log(
  `load average: ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}`,
);
console.log(`one chunk: ${CHUNK} bytes, ${text.length} characters of base64, a body of ${body.length} bytes; median of ${REPS}`);

console.log('JSON');
line('JSON.parse(body.toString()) (what express.json does)', await time(() => JSON.parse(body.toString('utf8'))));
const { parseMembers } = await import('../../apps/api-v2/src/chunk-body.js');
line('parseMembers(body): the chunk stays bytes (v2 chunk-body.ts)', await time(() => parseMembers(body)));

console.log('base64 decode');
const members = parseMembers(body) as { chunk: Buffer };
const scratch = Buffer.allocUnsafeSlow(CHUNK);
line("Buffer.from(string, 'base64') (native, no check)", await time(() => Buffer.from(text, 'base64')));
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
line('the strict regular expression on the string', await time(() => BASE64.test(text)));
line(
  'decodeBase64Bytes(bytes): the JS decoder of domain/uploads/base64.ts',
  await time(() => decodeBase64Bytes(members.chunk, scratch)),
);

console.log('file writes (a 200-chunk file, advancing offsets)');
const dir = mkdtempSync(path.join(tmpdir(), 'bo-upload-costs-'));
try {
  const storage = new FilesystemStorage(dir);
  line(
    'FilesystemStorage.writeAt: open, write, truncate, close',
    await time((i) => storage.writeAt('a', (i % 200) * CHUNK, bytes)),
  );
  const fh = await open(path.join(dir, 'b'), 'w');
  line('write on a file handle kept open', await time((i) => fh.write(bytes, 0, CHUNK, (i % 200) * CHUNK)));
  line(
    'write + fdatasync on a file handle kept open',
    await time(async (i) => {
      await fh.write(bytes, 0, CHUNK, (i % 200) * CHUNK);
      await fh.datasync();
    }),
  );
  await fh.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}

console.log('body parser over loopback HTTP (the same server, two routes; the difference is the parser)');
{
  const require = createRequire(path.resolve('apps/api-v2/package.json'));
  // express is a dependency of the v2 app, not of the root: the few members used here, typed by hand
  type Req = IncomingMessage & { body?: { chunk: string } };
  type Res = ServerResponse & { json(body: unknown): void };
  type Handler = (req: Req, res: Res, next: () => void) => void;
  interface App {
    (req: IncomingMessage, res: ServerResponse): void;
    put(path: string, ...handlers: Handler[]): void;
  }
  const express = require('express') as { (): App; json(o: { limit: string; strict: boolean }): Handler };
  const app = express();
  const json = express.json({ limit: '1mb', strict: false });
  app.put('/json', json, (req, res) => {
    res.json({ n: req.body?.chunk.length });
  });
  app.put('/own', async (req, res) => {
    const own = await readChunkBody(req as never);
    res.json({ n: (own.members.chunk as Buffer).length });
    own.release();
  });
  const server = createServer(app);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  const keepAlive = new Agent({ keepAlive: true });
  const put = (p: string) =>
    new Promise<void>((resolve, reject) => {
      const req = httpRequest(
        { host: '127.0.0.1', port, path: p, method: 'PUT', agent: keepAlive, headers: { 'content-type': 'application/json' } },
        (res) => {
          res.resume();
          res.on('end', resolve);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  line('PUT with express.json', await time(() => put('/json')));
  line('PUT with the v2 chunk-body reader', await time(() => put('/own')));
  server.close();
  keepAlive.destroy();
}

console.log('SQL statements of one chunk PUT (read off the wire; RUN_WORKER=false, rate limiter on as shipped)');
{
  const db = await createBenchDatabase();
  const log = await startStatementLog(db.url);
  const take = () => {
    const sql = log.statements.map((st) => st.sql);
    log.clear();
    return sql;
  };
  const server = await startServerProcess(log.url, db.dataDir, { RUN_WORKER: 'false' });
  try {
    const token = await createToken(db.url, 'bench');
    const headers = { 'authentication-key': token.key, 'authentication-secret': token.secret };
    const host = 'bench.localhost';
    const size = CHUNK * 6;
    const { body: started } = await call(server.port, host, headers, 'POST', '/api/v2/upload/chunked', {
      file_name: 'big.bin',
      file_size: size,
    });
    const id = (started as { data: { chunked_upload_id: string } }).data.chunked_upload_id;
    const put = (i: number) =>
      call(server.port, host, headers, 'PUT', `/api/v2/upload/chunked/${encodeURIComponent(id)}`, {
        chunk: text,
        pointer: i * CHUNK,
      });
    await put(0);
    await put(1);
    await new Promise((r) => setTimeout(r, 300));
    take();
    const t = performance.now();
    const res = await put(2);
    const ms = performance.now() - t;
    await new Promise((r) => setTimeout(r, 300));
    const statements = take();
    console.log(`  PUT chunk 3 of 6: ${res.status}, ${ms.toFixed(1)} ms, ${statements.length} statements:`);
    for (const s of statements) console.log(`    ${s.replace(/\s+/g, ' ').slice(0, 150)}`);
    for (let i = 3; i < 6; i += 1) await put(i);
    const last = take();
    console.log(`  the last three PUTs (the last one finishes): ${last.length} statements`);
    // the service's CPU per request: a small authenticated GET (what every v2 request pays) against a chunk PUT
    const cpu = async () => {
      const f = (await readFile(`/proc/${server.child.pid}/stat`, 'utf8')).replace(/^.*\) /, '').split(' ');
      return (Number(f[11]) + Number(f[12])) * 10; // clock ticks of 10 ms
    };
    const N = 100;
    let c0 = await cpu();
    for (let i = 0; i < N; i += 1)
      await call(server.port, host, headers, 'GET', `/api/v2/upload/chunked/${encodeURIComponent(id)}`);
    const getMs = ((await cpu()) - c0) / N;
    const { body: again } = await call(server.port, host, headers, 'POST', '/api/v2/upload/chunked', {
      file_name: 'cpu.bin',
      file_size: CHUNK * N,
    });
    const id2 = (again as { data: { chunked_upload_id: string } }).data.chunked_upload_id;
    c0 = await cpu();
    for (let i = 0; i < N; i += 1)
      await call(server.port, host, headers, 'PUT', `/api/v2/upload/chunked/${encodeURIComponent(id2)}`, {
        chunk: text,
        pointer: i * CHUNK,
      });
    const putMs = ((await cpu()) - c0) / N;
    console.log(
      `  service CPU per request: ${getMs.toFixed(2)} ms for GET upload/chunked/{id}, ${putMs.toFixed(2)} ms for a chunk PUT`,
    );
  } finally {
    await server.stop();
    await log.close();
    await db.drop();
    agent.destroy();
  }
}
process.exit(0);
