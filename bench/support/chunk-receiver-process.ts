import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

/**
 * The baseline of the chunked-upload benchmark (issue 15), in a process of its
 * own as the service is: a receiver that speaks the same protocol as
 * `POST/PUT /api/v2/upload/chunked` - HTTPS (or plain HTTP with `--plain`), a
 * JSON body with the chunk in base64, decoded and appended to a file, a small
 * JSON answer - and nothing else: no database, no authentication, no checks
 * beyond the size. Written the plain way (JSON.parse of the body,
 * Buffer.from(…, 'base64'), an open file handle per upload), as a receiver
 * without a database would be. Arguments: <dir> <cert.pem> <key.pem> [--plain].
 */
const [dir, certFile, keyFile, mode] = process.argv.slice(2) as [string, string, string, string | undefined];

const uploads = new Map<string, { fh: FileHandle; size: number; received: number }>();

function answer(res: ServerResponse, status: number, data: unknown): void {
  const body = JSON.stringify({ data, errors: [], debug: null });
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const parts: Buffer[] = [];
  for await (const piece of req as AsyncIterable<Buffer>) parts.push(piece);
  return JSON.parse(Buffer.concat(parts).toString('utf8')) as Record<string, unknown>;
}

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = req.url ?? '';
  if (req.method === 'POST' && url === '/api/v2/upload/chunked') {
    const body = await readJson(req);
    const id = `chunkedupload:${randomBytes(16).toString('hex')}`;
    const fh = await open(path.join(dir, id.replace(':', '-')), 'w');
    uploads.set(id, { fh, size: Number(body.file_size), received: 0 });
    answer(res, 200, { chunked_upload_id: id });
    return;
  }
  const m = /^\/api\/v2\/upload\/chunked\/([^/]+)$/.exec(url);
  if (req.method === 'PUT' && m) {
    const id = decodeURIComponent(m[1] as string);
    const u = uploads.get(id);
    const body = await readJson(req);
    if (!u) return answer(res, 404, null);
    const bytes = Buffer.from(body.chunk as string, 'base64');
    if (u.received + bytes.length > u.size) return answer(res, 400, null);
    await u.fh.write(bytes, 0, bytes.length, u.received);
    u.received += bytes.length;
    const done = u.received === u.size;
    if (done) {
      await u.fh.close();
      uploads.delete(id);
    }
    answer(res, 200, {
      chunked_upload_id: id,
      pointer: u.received,
      state: done ? 'done' : 'in_progress',
      file_size_current: u.received,
      file_size_expected: u.size,
    });
    return;
  }
  answer(res, 404, null);
}

const listener = (req: IncomingMessage, res: ServerResponse) => {
  handle(req, res).catch((err: unknown) => {
    if (!res.headersSent) answer(res, 500, String(err));
  });
};
const server =
  mode === '--plain'
    ? createHttpServer(listener)
    : createHttpsServer({ cert: readFileSync(certFile), key: readFileSync(keyFile) }, listener);
server.listen(0, '127.0.0.1', () => process.send?.({ port: (server.address() as AddressInfo).port }));
process.on('disconnect', () => process.exit(0));
