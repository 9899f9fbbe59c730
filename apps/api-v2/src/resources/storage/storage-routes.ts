import type { Request, Response } from 'express';
import type { RouteTable } from '../mount.js';
import { BadRequestError, toDomainError } from '@bo/domain';
import { leaveShare } from '@bo/runtime';
import type { StoredFile } from '@bo/domain/storage/stored-file';
import type { V2Helpers } from '../../app.js';
import { uploadStatusV2 } from '../../files.js';

/**
 * The v2 storage endpoints (/api/v2/storage/*): wire format only. Every GET
 * answers bytes with ETag / If-None-Match, Range (one range; several are
 * answered whole) and a Content-Disposition; every refusal is the v2 envelope.
 * The shapes are documented in openapi.ts (storagePaths).
 */

/** Types a browser may show in place; anything else is always an attachment. */
const INLINE = new Set(['application/pdf', 'image/png', 'image/jpeg', 'image/gif', 'image/webp', 'text/plain']);

function disposition(kind: 'inline' | 'attachment', fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

function matches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);
}

/** Sends a stored file: 304 on a matching If-None-Match, 206 on one satisfiable range, 416 on none. */
export function sendStoredFile(
  req: Request,
  res: Response,
  file: StoredFile,
  opts: { attachment?: boolean; ownIcon?: boolean } = {},
): void {
  const inline = !opts.attachment && (INLINE.has(file.contentType) || (opts.ownIcon && file.contentType === 'image/svg+xml'));
  res.setHeader('ETag', file.etag);
  res.setHeader('Accept-Ranges', 'bytes');
  res.setHeader('Cache-Control', file.immutable ? 'private, max-age=31536000, immutable' : 'private, no-cache');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  // a stored file never runs anything in this origin, even when opened directly
  res.setHeader('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox");
  res.setHeader('Content-Disposition', disposition(inline ? 'inline' : 'attachment', file.fileName));
  if (matches(req.headers['if-none-match'], file.etag)) {
    res.status(304).end();
    return;
  }
  res.setHeader('Content-Type', file.contentType);
  let range: { start: number; end: number } | undefined;
  const ifRange = req.headers['if-range'];
  // only byte ranges are served in part (RFC 9110 14.2: a range unit the server does not know is ignored)
  if (req.headers.range && /^\s*bytes\s*=/i.test(req.headers.range) && (!ifRange || ifRange === file.etag)) {
    const parsed = req.range(file.size, { combine: true });
    if (parsed === -1) {
      res.setHeader('Content-Range', `bytes */${file.size}`);
      res
        .status(416)
        .type('application/json')
        .send(JSON.stringify({ data: null, errors: [`the range is outside the file's ${file.size} bytes`], debug: null }));
      return;
    }
    if (Array.isArray(parsed) && parsed.length === 1 && parsed[0]) range = { start: parsed[0].start, end: parsed[0].end };
  }
  if (range) {
    res.status(206);
    res.setHeader('Content-Range', `bytes ${range.start}-${range.end}/${file.size}`);
    res.setHeader('Content-Length', String(range.end - range.start + 1));
  } else {
    res.status(200);
    res.setHeader('Content-Length', String(file.size));
  }
  if (req.method === 'HEAD' || file.size === 0) {
    res.end();
    return;
  }
  const stream = file.open(range);
  // the bytes go at the client's pace: the environment's next request need not wait for them
  leaveShare(res);
  res.on('close', () => stream.destroy());
  stream.on('error', () => res.destroy());
  stream.pipe(res);
}

function query(req: Request, name: string): string | undefined {
  const v = req.query[name];
  return typeof v === 'string' ? v : undefined;
}

/** The file of a raw-body upload: the body as it arrives, its name (query file_name or X-File-Name) and declared type. */
function incoming(req: Request) {
  const header = req.headers['x-file-name'];
  let fileName: unknown = query(req, 'file_name');
  if (fileName === undefined && typeof header === 'string') {
    try {
      fileName = decodeURIComponent(header);
    } catch {
      throw new BadRequestError('X-File-Name must be URL-encoded UTF-8');
    }
  }
  const length = req.headers['content-length'];
  return {
    fileName,
    declaredType: req.headers['content-type'] ?? null,
    declaredLength: length && /^\d+$/.test(length) ? Number(length) : null,
    body: req,
  };
}

/** a body cut short by the client is its failure, not the service's */
async function reading<T>(req: Request, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (toDomainError(err)) throw err;
    const code = (err as { code?: string })?.code;
    if (!req.complete || code === 'ECONNRESET' || code === 'ERR_STREAM_PREMATURE_CLOSE') {
      throw new BadRequestError('the body was cut short');
    }
    throw err;
  }
}

/** The three raw-body uploads: any Content-Type, the body read as a stream (V2Options.rawBody). */
export function readsRawBody(req: Request): boolean {
  return req.method === 'POST' && /^\/storage\/(uploadstream|paperlayoutupload|dropzoneupload)\/?$/.test(req.path);
}

function assetV2(a: {
  id: string;
  kind: string;
  ownerId: string;
  fileName: string;
  fileSize: number;
  contentType: string;
  updatedAt: Date;
}): Record<string, unknown> {
  const owner = a.kind === 'logo' || a.kind === 'letterpaper' ? 'my_organization_profile_id' : 'user_id';
  return {
    id: a.id,
    type: a.kind,
    [owner]: a.ownerId,
    file_name: a.fileName,
    file_size: a.fileSize,
    content_type: a.contentType,
    updated_at: a.updatedAt.toISOString(),
    url: `/api/v2/storage/${a.kind}?${owner}=${encodeURIComponent(a.ownerId)}`,
  };
}

export function mountStorageRoutes(app: RouteTable, h: V2Helpers): void {
  const s = (req: Request) => h.caller(req).storage;

  // a document's bytes: inline where a browser can show them safely
  for (const name of ['download', 'getfile', 'loadfile', 'filex', 'documenteditordownload']) {
    app.get(`/storage/${name}`, async (req, res) => {
      sendStoredFile(req, res, await s(req).file({ id: query(req, 'id') }));
    });
  }
  app.get('/storage/downloadasattachment', async (req, res) => {
    sendStoredFile(req, res, await s(req).file({ id: query(req, 'id') }), { attachment: true });
  });

  // thumbnails: PNG of an image, cached by content; the type icon (SVG) of anything else
  app.get('/storage/thumbnail', async (req, res) => {
    const file = await s(req).thumbnail({ id: query(req, 'id'), size: query(req, 'size') });
    sendStoredFile(req, res, file, { ownIcon: true });
  });
  app.get('/storage/cachedthumb', async (req, res) => {
    const file = await s(req).thumbnail({ id: query(req, 'id'), size: query(req, 'size') });
    sendStoredFile(req, res, file, { ownIcon: true });
  });
  app.get('/storage/preview', async (req, res) => {
    sendStoredFile(req, res, await s(req).thumbnail({ id: query(req, 'id'), size: 1024 }), { ownIcon: true });
  });

  // icons by type
  app.get('/storage/fileicon', async (req, res) => {
    const file = await s(req).icon({
      id: query(req, 'id'),
      extension: query(req, 'extension') ?? null,
      contentType: query(req, 'content_type') ?? null,
      fileName: query(req, 'file_name') ?? null,
    });
    sendStoredFile(req, res, file, { ownIcon: true });
  });
  app.post('/storage/getfileicon', async (req, res) => {
    const b: unknown = req.body;
    if (!b || typeof b !== 'object' || Array.isArray(b)) throw new BadRequestError('the body must be a JSON object');
    const body = b as Record<string, unknown>;
    const str = (k: string) => (typeof body[k] === 'string' ? (body[k] as string) : null);
    const file = await s(req).icon({
      id: body.id,
      extension: str('extension'),
      contentType: str('content_type'),
      fileName: str('file_name'),
    });
    sendStoredFile(req, res, file, { ownIcon: true });
  });

  app.get('/storage/costsattachment', async (req, res) => {
    sendStoredFile(req, res, await s(req).costsAttachment({ expenseId: query(req, 'expense_id'), id: query(req, 'id') }));
  });

  // company-profile and user files
  const profile = (req: Request) => query(req, 'my_organization_profile_id');
  const asset = (kind: 'logo' | 'letterpaper' | 'avatar' | 'signature', ownerId: unknown) => ({ kind, ownerId });
  app.get(['/storage/logo', '/storage/getlogofile'], async (req, res) => {
    sendStoredFile(req, res, await s(req).asset.get(asset('logo', profile(req))));
  });
  app.get('/storage/downloadlogo', async (req, res) => {
    sendStoredFile(req, res, await s(req).asset.get(asset('logo', profile(req))), { attachment: true });
  });
  app.get('/storage/letterpaper', async (req, res) => {
    sendStoredFile(req, res, await s(req).asset.get(asset('letterpaper', profile(req))));
  });
  app.get('/storage/downloadletterpaper', async (req, res) => {
    sendStoredFile(req, res, await s(req).asset.get(asset('letterpaper', profile(req))), { attachment: true });
  });
  app.get('/storage/avatar', async (req, res) => {
    sendStoredFile(req, res, await s(req).asset.get(asset('avatar', query(req, 'user_id'))));
  });
  app.get('/storage/signature', async (req, res) => {
    sendStoredFile(req, res, await s(req).asset.get(asset('signature', query(req, 'user_id'))));
  });

  // raw-body uploads
  app.post('/storage/paperlayoutupload', async (req, res) => {
    const kind = query(req, 'type');
    if (kind !== 'logo' && kind !== 'letterpaper') throw new BadRequestError('type: one of logo, letterpaper');
    const saved = await reading(req, () => s(req).asset.put({ kind, ownerId: profile(req), file: incoming(req) }));
    h.sendData(res, assetV2(saved));
  });
  app.post('/storage/dropzoneupload', async (req, res) => {
    const kind = query(req, 'type');
    if (kind !== 'avatar' && kind !== 'signature') throw new BadRequestError('type: one of avatar, signature');
    const saved = await reading(req, () => s(req).asset.put({ kind, ownerId: query(req, 'user_id'), file: incoming(req) }));
    h.sendData(res, assetV2(saved));
  });
  app.post('/storage/uploadstream', async (req, res) => {
    const status = await reading(req, () => s(req).uploadStream(incoming(req)));
    h.sendData(res, uploadStatusV2(status));
  });
}
