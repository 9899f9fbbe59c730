import express, { type Request, type Response, type Router } from 'express';
import { appRouter, createCaller, type DomainError, declaredRightOf, toDomainError } from '@bo/domain';
import { procedureNamedBy } from '@bo/domain/trpc';
import { readCookie, SESSION_COOKIE } from '@bo/http';
import { admissionOf, type HttpMountContext } from '@bo/runtime';
import { sendStoredFile } from './resources/storage/storage-routes.js';

const STATUS: Record<string, number> = {
  not_found: 404,
  forbidden: 403,
  unauthenticated: 401,
  rate_limited: 429,
  unavailable: 503,
  gone: 410,
  precondition_failed: 412,
};

function plain(res: Response, status: number, text: string): void {
  res.status(status).type('text/plain').send(text);
}

/** the procedure each kind of file is read with, and the right it declares */
const PROCEDURES = {
  document: procedureNamedBy(appRouter, (c) => c.storage.file),
  upload: procedureNamedBy(appRouter, (c) => c.storage.uploadFile),
};

function render(err: DomainError, _req: Request, res: Response): void {
  plain(
    res,
    STATUS[err.kind] ?? 400,
    err.kind === 'unauthenticated'
      ? 'A browser session is required to download this file: sign in at /settings/api.'
      : err.message,
  );
}

/**
 * The `download_url` of uploads and documents: an address for a browser with
 * a web session (signed in at /settings/api), which the contract keeps apart
 * from the API. API tokens are refused here (403); programmatic downloads use
 * /api/v2/documents/download/{id} or /api/v2/storage/download. No session, or
 * one that has expired, ended or belongs to another environment: 401. Behind
 * the one guard of every door, with the session as credentials.
 */
export function createBrowserDownloadRouter(ctx: Pick<HttpMountContext, 'guard' | 'log'>): Router {
  const r = express.Router();
  r.use((_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    next();
  });
  const noTokens = (req: Request, res: Response, next: () => void) => {
    const hasToken = Boolean(
      req.headers['authentication-key'] || req.headers['authentication-secret'] || req.headers.authorization,
    );
    if (hasToken) {
      return plain(
        res,
        403,
        'API tokens are not accepted here: this address needs a browser session. Use /api/v2/documents/download/{id}.',
      );
    }
    next();
  };
  const guard = ctx.guard.door({
    credentials: { session: (req) => readCookie(req, SESSION_COOKIE) },
    right: (req) => {
      const kind = req.params.kind;
      return declaredRightOf(kind === 'document' || kind === 'upload' ? PROCEDURES[kind] : PROCEDURES.document);
    },
    render,
  });
  r.get('/:kind/:id', noTokens, guard, async (req: Request, res: Response) => {
    try {
      const storage = createCaller(admissionOf(res).context).storage;
      const id = req.params.id as string;
      const kind = req.params.kind;
      if (kind !== 'document' && kind !== 'upload') return plain(res, 404, 'Not found.');
      const file = kind === 'document' ? await storage.file({ id }) : await storage.uploadFile({ uploadQueueId: id });
      sendStoredFile(req, res, file, { attachment: true });
    } catch (err) {
      const domain = toDomainError(err);
      if (domain) return render(domain, req, res);
      ctx.log.error({ err, requestId: req.headers['x-request-id'], path: req.path }, 'unhandled error in a browser download');
      plain(res, 500, 'Something went wrong. The request id is in the X-Request-Id header.');
    }
  });
  r.all('/{*rest}', (_req, res) => plain(res, 404, 'Not found.'));
  return r;
}

/** Where a browser with a web session downloads a file: the `download_url` of uploads and documents. */
export function browserDownloadPath(kind: 'upload' | 'document', id: string): string {
  return `/web/download/${kind}/${encodeURIComponent(id)}`;
}
