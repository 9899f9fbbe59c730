import type { Request, Response } from 'express';
import type { RouteTable } from './resources/mount.js';
import { BadRequestError, toDomainError, ValidationError } from '@bo/domain';
import type { UploadStatus } from '@bo/domain/uploads/upload.schema';
import type { V2Helpers } from './app.js';
import { browserDownloadPath } from './browser-download.js';
import { readChunkBody } from './chunk-body.js';
import { documentNames } from './resources/documents/documents.js';
import { sendStoredFile } from './resources/storage/storage-routes.js';
import { inV2Terms } from './resources/v2-resource.js';

/** v2 names of the upload fields whose domain names differ; other keys pass as they are */
const UPLOAD_NAMES: Record<string, string> = { file_name: 'fileName', file_size: 'fileSize' };
const UPLOAD_V2_NAMES: Record<string, string> = { fileName: 'file_name', fileSize: 'file_size' };

function uploadInput(b: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(b).map(([k, v]) => [UPLOAD_NAMES[k] ?? k, v]));
}

/** validation errors of an upload in v2 names */
async function inV2UploadTerms<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    const domain = toDomainError(err);
    if (domain instanceof ValidationError) {
      throw new ValidationError(domain.violations.map((v) => ({ ...v, path: UPLOAD_V2_NAMES[v.path] ?? v.path })));
    }
    throw err;
  }
}

/** The v2 answer of PUT /upload/chunked/{id} (and GET): upload_queue_id and download_url only when done. */
export function uploadStatusV2(u: UploadStatus): Record<string, unknown> {
  const out: Record<string, unknown> = {
    chunked_upload_id: u.id,
    pointer: u.received,
    state: u.state,
    file_size_current: u.received,
    file_size_expected: u.fileSize,
  };
  if (u.uploadQueueId) {
    out.upload_queue_id = u.uploadQueueId;
    out.download_url = browserDownloadPath('upload', u.uploadQueueId);
  }
  return out;
}

function body(req: Request): Record<string, unknown> {
  const b: unknown = req.body;
  if (!b || typeof b !== 'object' || Array.isArray(b)) throw new BadRequestError('the body must be a JSON object');
  return b as Record<string, unknown>;
}

/** RFC 6266 file name: an ASCII fallback plus the exact UTF-8 name. */
export function contentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

/** PUT /upload/chunked/{id} reads its own body (V2Options.ownBody) */
export function readsOwnBody(req: Request): boolean {
  return req.method === 'PUT' && /^\/upload\/chunked\/[^/]+\/?$/.test(req.path);
}

/**
 * v2 routes that are not generic resources: chunked uploads, the download of a
 * document's file, and PUT documents/externaldocument with the id in the body.
 * Wire format only; the domain does the rest.
 */
export function mountFileRoutes(app: RouteTable, h: V2Helpers): void {
  app.post('/upload/chunked', async (req, res) => {
    const started = await inV2UploadTerms(() => h.caller(req).upload.chunked.start(uploadInput(body(req)) as never));
    h.sendData(res, { chunked_upload_id: started.id });
  });
  app.put('/upload/chunked/:id', async (req, res) => {
    // read here, not by express.json: the chunk stays bytes (see chunk-body.ts)
    const own = await readChunkBody(req, h.maxJsonDepth);
    try {
      const put = h.caller(req).upload.chunked.put;
      const status = await inV2UploadTerms(() => put({ ...own.members, id: req.params.id } as Parameters<typeof put>[0]));
      h.sendData(res, uploadStatusV2(status));
    } finally {
      own.release();
    }
  });
  app.get('/upload/chunked/:id', async (req, res) => {
    h.sendData(res, uploadStatusV2(await h.caller(req).upload.chunked.get({ id: req.params.id as string })));
  });

  // the same bytes as storage/downloadasattachment (ETag, If-None-Match, Range), typed as the contract says
  // of this path: application/pdf for a PDF, otherwise application/octet-stream
  app.get('/documents/download/:id', async (req, res: Response) => {
    const file = await h.caller(req).storage.file({ id: req.params.id as string });
    const contentType = file.contentType === 'application/pdf' ? file.contentType : 'application/octet-stream';
    sendStoredFile(req, res, { ...file, contentType }, { attachment: true });
  });

  app.put('/documents/externaldocument', async (req, res) => {
    const { id, ...data } = body(req);
    if (typeof id !== 'string' || !id) throw new BadRequestError('id: the id of the external document is required');
    const update = h.caller(req).documents.externaldocument.update;
    const input = { id, data: documentNames.input(data) } as Parameters<typeof update>[0];
    try {
      h.sendData(res, await update(input));
    } catch (err) {
      throw inV2Terms(err, documentNames);
    }
  });
}
