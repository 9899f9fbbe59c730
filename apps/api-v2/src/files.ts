import type { Request, Response, Router } from 'express';
import { BadRequestError } from '@bo/domain';
import type { V2Helpers } from './app.js';
import { readChunkBody } from './chunk-body.js';

type Procedure = (input: unknown) => Promise<unknown>;

function at(caller: unknown, path: string): Procedure {
  let node = caller;
  for (const seg of path.split('.')) node = (node as Record<string, unknown>)[seg];
  return node as Procedure;
}

function body(req: Request): Record<string, unknown> {
  const b: unknown = req.body;
  if (!b || typeof b !== 'object' || Array.isArray(b)) throw new BadRequestError('the body must be a JSON object');
  return b as Record<string, unknown>;
}

/** RFC 6266 file name: an ASCII fallback plus the exact UTF-8 name. */
function contentDisposition(fileName: string): string {
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
export function mountFileRoutes(app: Router, h: V2Helpers): void {
  app.post('/upload/chunked', async (req, res) => {
    h.sendData(res, await at(h.caller(req), 'upload.chunked.start')(body(req)));
  });
  app.put('/upload/chunked/:id', async (req, res) => {
    // read here, not by express.json: the chunk stays bytes (see chunk-body.ts)
    const own = await readChunkBody(req);
    try {
      h.sendData(res, await at(h.caller(req), 'upload.chunked.put')({ ...own.members, id: req.params.id }));
    } finally {
      own.release();
    }
  });
  app.get('/upload/chunked/:id', async (req, res) => {
    h.sendData(res, await at(h.caller(req), 'upload.chunked.get')({ id: req.params.id }));
  });

  app.get('/documents/download/:id', async (req, res: Response) => {
    const file = (await at(h.caller(req), 'documents.download')({ id: req.params.id })) as {
      fileName: string;
      contentType: string;
      size: number;
      stream: NodeJS.ReadableStream & { destroy(): void };
    };
    res.status(200);
    res.setHeader('Content-Type', file.contentType);
    res.setHeader('Content-Length', String(file.size));
    res.setHeader('Content-Disposition', contentDisposition(file.fileName));
    res.on('close', () => file.stream.destroy());
    file.stream.on('error', () => res.destroy());
    file.stream.pipe(res);
  });

  app.put('/documents/externaldocument', async (req, res) => {
    const { id, ...data } = body(req);
    if (typeof id !== 'string' || !id) throw new BadRequestError('id: the id of the external document is required');
    h.sendData(res, await at(h.caller(req), 'documents.externaldocument.update')({ id, data }));
  });
}
