import express, { type NextFunction, type Request, type Response } from 'express';
import { createExpressMiddleware } from '@trpc/server/adapters/express';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import { TRPC_ERROR_CODES_BY_KEY, type TRPC_ERROR_CODE_KEY } from '@trpc/server/rpc';
import { appRouter, createCaller, environmentFromHost, type Principal, toDomainError } from '@bo/domain';
import type { HttpMount, HttpMountContext } from '@bo/runtime';

/** Every door reads at most this much body. */
export const BODY_LIMIT_BYTES = 1024 * 1024;

/** Internal tools: the same procedures over HTTP at /trpc, behind the same guards as v2 and v3. */
export const trpcMount: HttpMount = {
  name: 'trpc',
  mount(app, ctx) {
    app.use('/trpc', trpcDoor(ctx));
  },
};

/** An error answer in tRPC's own shape, for what is refused before tRPC runs. */
function sendTrpcError(res: Response, code: TRPC_ERROR_CODE_KEY, message: string): void {
  const httpStatus = getHTTPStatusCodeFromError({ code } as Parameters<typeof getHTTPStatusCodeFromError>[0]);
  res.status(httpStatus).json({ error: { message, code: TRPC_ERROR_CODES_BY_KEY[code], data: { code, httpStatus } } });
}

function trpcDoor({ context, guard, authFailed, rateLimit, log, trpcMaxBatch }: HttpMountContext) {
  const door = express.Router();
  // the body limit, decided on the declared length before a byte is read (tRPC's own
  // maxBodySize below stops a body without a length, or one longer than it said)
  door.use((req, res, next) => {
    const length = Number(req.headers['content-length'] ?? 0);
    if (length > BODY_LIMIT_BYTES) {
      res.setHeader('Connection', 'close');
      sendTrpcError(res, 'PAYLOAD_TOO_LARGE', 'the body is larger than the 1 MB limit');
      return;
    }
    next();
  });
  // the same authentication as v3 (bearer key:secret) or v2 (key and secret headers)
  door.use(async (req: Request, res: Response, next: NextFunction) => {
    try {
      const environment = environmentFromHost(req.headers.host);
      if (!environment) return sendTrpcError(res, 'NOT_FOUND', 'not found');
      const refusal = await guard(req);
      if (refusal) {
        if (refusal.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(refusal.retryAfterSeconds));
        return sendTrpcError(res, refusal.status === 429 ? 'TOO_MANY_REQUESTS' : 'SERVICE_UNAVAILABLE', refusal.message);
      }
      const bearer = /^Bearer\s+([^:\s]+):(\S+)$/i.exec((req.headers.authorization ?? '').trim());
      const header = (name: string) => {
        const v = req.headers[name];
        return typeof v === 'string' && v.length > 0 ? v : null;
      };
      let principal: Principal;
      try {
        principal = await createCaller(context(req)).auth.authenticate({
          environment,
          key: bearer?.[1] ?? header('authentication-key'),
          secret: bearer?.[2] ?? header('authentication-secret'),
        });
      } catch (err) {
        const kind = toDomainError(err)?.kind;
        if (kind === 'unauthenticated') {
          await authFailed(req);
          res.setHeader('WWW-Authenticate', 'Bearer');
          return sendTrpcError(res, 'UNAUTHORIZED', 'missing or invalid credentials');
        }
        if (kind === 'not_found') return sendTrpcError(res, 'NOT_FOUND', 'not found');
        throw err;
      }
      // one budget per token, whichever door it comes through
      if (rateLimit && principal.kind === 'user' && principal.tokenId) {
        const decision = await rateLimit(`token:${principal.tokenId}`);
        if (decision.limit > 0) {
          res.setHeader('X-RateLimit-Limit', String(decision.limit));
          res.setHeader('X-RateLimit-Remaining', String(decision.remaining));
          if (!decision.allowed) {
            res.setHeader('Retry-After', String(decision.retryAfterSeconds));
            return sendTrpcError(
              res,
              'TOO_MANY_REQUESTS',
              `rate limit of ${decision.limit} requests per minute exceeded; retry in ${decision.retryAfterSeconds} s`,
            );
          }
        }
      }
      res.locals.principal = principal;
      next();
    } catch (err) {
      const domain = toDomainError(err);
      if (domain?.kind === 'unavailable') return sendTrpcError(res, 'SERVICE_UNAVAILABLE', domain.message);
      log.error({ err, requestId: req.headers['x-request-id'] }, 'trpc authentication failed');
      sendTrpcError(res, 'INTERNAL_SERVER_ERROR', 'internal error; the request id is in the X-Request-Id header');
    }
  });
  door.use(
    createExpressMiddleware({
      router: appRouter,
      maxBodySize: BODY_LIMIT_BYTES,
      maxBatchSize: trpcMaxBatch,
      createContext: ({ req, res }) => ({ ...context(req), principal: res.locals.principal as Principal }),
      onError: ({ error, path, req }) => {
        if (error.code === 'INTERNAL_SERVER_ERROR' && !(error.cause && 'kind' in error.cause)) {
          log.error({ err: error, path, requestId: req.headers['x-request-id'] }, 'trpc error');
        }
      },
    }),
  );
  return door;
}
