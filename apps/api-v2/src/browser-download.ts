import express, { type Request, type Response, type Router } from 'express';
import { createCaller, environmentFromHost, toDomainError } from '@bo/domain';
import { isSecureRequest, readCookie, SESSION_COOKIE } from '@bo/http';
import type { HttpMountContext } from '@bo/runtime';
import { sendStoredFile } from './resources/storage/storage-routes.js';

const STATUS: Record<string, number> = {
  not_found: 404,
  forbidden: 403,
  unauthenticated: 401,
  rate_limited: 429,
  unavailable: 503,
};

function plain(res: Response, status: number, text: string): void {
  res.status(status).type('text/plain').send(text);
}

/**
 * The `download_url` of uploads and documents: an address for a browser with
 * a web session (signed in at /settings/api), which the contract keeps apart
 * from the API. API tokens are refused here (403); programmatic downloads use
 * /api/v2/documents/download/{id} or /api/v2/storage/download. No session, or
 * one that has expired, ended or belongs to another environment: 401.
 */
export function createBrowserDownloadRouter(
  ctx: Pick<HttpMountContext, 'context' | 'guard' | 'trustProxy' | 'log' | 'rateLimit'>,
): Router {
  const r = express.Router();
  r.use((_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    next();
  });
  r.get('/:kind/:id', async (req: Request, res: Response) => {
    try {
      const hasToken = Boolean(
        req.headers['authentication-key'] || req.headers['authentication-secret'] || req.headers.authorization,
      );
      if (hasToken) {
        plain(
          res,
          403,
          'API tokens are not accepted here: this address needs a browser session. Use /api/v2/documents/download/{id}.',
        );
        return;
      }
      if (!isSecureRequest(req, ctx.trustProxy)) return plain(res, 403, 'TLS is required.');
      const environment = environmentFromHost(req.headers.host);
      if (!environment) return plain(res, 404, 'Not found.');
      const refusal = await ctx.guard(req);
      if (refusal) {
        if (refusal.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(refusal.retryAfterSeconds));
        return plain(res, refusal.status, refusal.message);
      }
      const base = ctx.context(req);
      const session = await createCaller({ ...base, principal: null }).auth.session.resolve({
        environment,
        secret: readCookie(req, SESSION_COOKIE),
      });
      if (!session) return plain(res, 401, 'A browser session is required to download this file: sign in at /settings/api.');
      if (ctx.rateLimit) {
        const decision = await ctx.rateLimit(`session:${session.sessionId}`);
        if (!decision.allowed) {
          res.setHeader('Retry-After', String(decision.retryAfterSeconds));
          return plain(res, 429, `Too many requests; retry in ${decision.retryAfterSeconds} s.`);
        }
      }
      const storage = createCaller({ ...base, principal: session.principal }).storage;
      const id = req.params.id as string;
      const kind = req.params.kind;
      if (kind !== 'document' && kind !== 'upload') return plain(res, 404, 'Not found.');
      const file = kind === 'document' ? await storage.file({ id }) : await storage.uploadFile({ uploadQueueId: id });
      sendStoredFile(req, res, file, { attachment: true });
    } catch (err) {
      const domain = toDomainError(err);
      if (domain) return plain(res, STATUS[domain.kind] ?? 400, domain.message);
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
