import express, { type NextFunction, type Request, type Response } from 'express';
import { createExpressMiddleware } from '@trpc/server/adapters/express';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import { TRPC_ERROR_CODES_BY_KEY, type TRPC_ERROR_CODE_KEY } from '@trpc/server/rpc';
import { appRouter, type DeclaredRight, type DomainError, declaredRightOf } from '@bo/domain';
import { procedureAtPath, TRPC_CODES } from '@bo/domain/trpc';
import { admissionOf, type HttpMount, type HttpMountContext, UNMATCHED_ROUTE } from '@bo/runtime';
import { JsonTooDeepError, jsonTextDeeperThan, refuseDeepJson } from '@bo/http';

/** Every door reads at most this much body. */
export const BODY_LIMIT_BYTES = 1024 * 1024;

/** Internal tools: the same procedures over HTTP at /trpc, behind the one guard of every door. */
export const trpcMount: HttpMount = {
  name: 'trpc',
  mount(app, ctx) {
    app.use('/trpc', trpcDoor(ctx));
  },
  /** the procedure's path (`crm.organization.list`); `batch` for several calls; a path of no procedure is not a label */
  routeOf(_req, path) {
    if (!path.startsWith('/trpc/')) return path === '/trpc' ? UNMATCHED_ROUTE : undefined;
    let called: string;
    try {
      called = decodeURIComponent(path.slice('/trpc/'.length));
    } catch {
      return UNMATCHED_ROUTE;
    }
    if (called.includes(',')) return 'batch';
    return procedureAtPath(appRouter, called) ? called : UNMATCHED_ROUTE;
  },
};

/** An error answer in tRPC's own shape, for what is refused before tRPC runs. */
function sendTrpcError(res: Response, code: TRPC_ERROR_CODE_KEY, message: string): void {
  const httpStatus = getHTTPStatusCodeFromError({ code } as Parameters<typeof getHTTPStatusCodeFromError>[0]);
  res.status(httpStatus).json({ error: { message, code: TRPC_ERROR_CODES_BY_KEY[code], data: { code, httpStatus } } });
}

/** The guard's refusals in tRPC's shape. */
function render(err: DomainError, _req: Request, res: Response): void {
  if (err.kind === 'unauthenticated') res.setHeader('WWW-Authenticate', 'Bearer');
  sendTrpcError(res, TRPC_CODES[err.kind], err.message);
}

/**
 * The right the called procedure declares (`/trpc/crm.organization.create`), read from the router's
 * public record. A batch (`/trpc/a,b`) is answered call by call, so each procedure checks its own
 * right, before its input, with the same check.
 */
function procedureRight(req: Request): DeclaredRight | undefined {
  let path: string;
  try {
    path = decodeURIComponent(req.path.slice(1));
  } catch {
    return undefined;
  }
  if (!path || path.includes(',')) return undefined;
  return declaredRightOf(procedureAtPath(appRouter, path));
}

function trpcDoor({ guard, log, trpcMaxBatch, maxJsonDepth }: HttpMountContext) {
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
  // the one guard (a token as v3's bearer or v2's headers); the procedure's declared right before the body
  door.use(guard.door({ credentials: 'token', right: procedureRight, render }));
  // the nesting limit on the input as read (a query's `input` parameter, a mutation's body), before
  // tRPC parses it: the body is read here as text and handed to tRPC, which parses it once
  door.use((req, _res, next) => {
    const input = req.query.input;
    next(typeof input === 'string' && jsonTextDeeperThan(input, maxJsonDepth) ? new JsonTooDeepError(maxJsonDepth) : undefined);
  });
  door.use(express.text({ type: () => true, limit: BODY_LIMIT_BYTES, verify: refuseDeepJson(maxJsonDepth) }));
  door.use((err: unknown, _req: Request, res: Response, next: NextFunction) => {
    const type = (err as { type?: unknown } | null)?.type;
    if (type === 'entity.too.deep') return sendTrpcError(res, 'BAD_REQUEST', (err as Error).message);
    if (type === 'entity.too.large') return sendTrpcError(res, 'PAYLOAD_TOO_LARGE', 'the body is larger than the 1 MB limit');
    if (type === 'request.aborted' || type === 'request.size.invalid')
      return sendTrpcError(res, 'BAD_REQUEST', 'the body was cut short');
    if (type === 'charset.unsupported' || type === 'encoding.unsupported') {
      return sendTrpcError(res, 'UNSUPPORTED_MEDIA_TYPE', 'the body must be UTF-8 JSON');
    }
    next(err);
  });
  door.use((err: unknown, req: Request, res: Response, _next: NextFunction) => {
    log.error({ err, requestId: req.headers['x-request-id'] }, 'trpc authentication failed');
    sendTrpcError(res, 'INTERNAL_SERVER_ERROR', 'internal error; the request id is in the X-Request-Id header');
  });
  door.use(
    createExpressMiddleware({
      router: appRouter,
      maxBodySize: BODY_LIMIT_BYTES,
      maxBatchSize: trpcMaxBatch,
      createContext: ({ res }) => admissionOf(res).context,
      onError: ({ error, path, req }) => {
        if (error.code === 'INTERNAL_SERVER_ERROR' && !(error.cause && 'kind' in error.cause)) {
          log.error({ err: error, path, requestId: req.headers['x-request-id'] }, 'trpc error');
        }
      },
    }),
  );
  return door;
}
