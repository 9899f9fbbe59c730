import { randomUUID } from 'node:crypto';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import { createExpressMiddleware } from '@trpc/server/adapters/express';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import { TRPC_ERROR_CODES_BY_KEY, type TRPC_ERROR_CODE_KEY } from '@trpc/server/rpc';
import { type PrismaClient, runInRequestScope } from '@bo/db';
import { createBrowserDownloadRouter, createV2Router, type V2Options } from '@bo/api-v2';
import { createV3Router, type V3Options } from '@bo/api-v3';
import {
  appRouter,
  type Clock,
  createCaller,
  describeMaintenance,
  type DomainContext,
  type DomainServices,
  environmentFromHost,
  type MaintenanceReader,
  type Principal,
  systemClock,
  toDomainError,
} from '@bo/domain';
import type { Logger } from 'pino';
import type { RateLimit } from './rate-limit.js';

export interface HttpAppOptions {
  prisma: PrismaClient;
  log: Logger;
  trustProxy: boolean;
  clock?: Clock;
  services?: DomainServices;
  rateLimit?: RateLimit | null;
  /** scheduled maintenance, read from the database (cached); none: never in maintenance */
  maintenance?: MaintenanceReader | null;
  /** calls in one /trpc batch (default 10) */
  trpcMaxBatch?: number;
  v2?: Pick<V2Options, 'extend' | 'ownBody'>;
  v3?: Pick<V3Options, 'endpoints'>;
}

/** Every door reads at most this much body. */
export const BODY_LIMIT_BYTES = 1024 * 1024;

type Refusal = { status: 429 | 503; message: string; retryAfterSeconds?: number };

/** Both wire versions, the internal tRPC endpoint and the health check on one express app. */
export function createHttpApp(opts: HttpAppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  // list pages are large and change constantly: hashing each body for an ETag costs more than it saves
  app.set('etag', false);
  app.set('trust proxy', opts.trustProxy);
  const clock = opts.clock ?? systemClock;

  app.use((req, res, next) => {
    const incoming = req.headers['x-request-id'];
    const id = typeof incoming === 'string' && /^[\w.-]{1,128}$/.test(incoming) ? incoming : randomUUID();
    req.headers['x-request-id'] = id;
    res.setHeader('X-Request-Id', id);
    next();
  });

  const context = (req: Request): DomainContext => ({
    prisma: opts.prisma,
    principal: null,
    clock,
    requestId: req.headers['x-request-id'] as string,
    services: opts.services,
  });

  app.get('/healthz', async (_req, res) => {
    try {
      await opts.prisma.$queryRawUnsafe('SELECT 1');
      const windows = (await opts.maintenance?.all()) ?? [];
      if (windows.length === 0) {
        res.json({ status: 'ok' });
        return;
      }
      const now = clock.now();
      res.json({
        status: 'maintenance',
        maintenance: windows.map((w) => ({
          environment: w.scope === '*' ? 'all' : w.scope,
          endsAt: w.endsAt?.toISOString() ?? null,
          ...describeMaintenance(w, now),
        })),
      });
    } catch {
      res.status(503).json({ status: 'unavailable', reason: 'the database does not answer' });
    }
  });

  // Every request's database work runs in a scope: its environment's fair share of
  // connections, and its statements cancelled when the client goes away (see @bo/db pool.ts).
  app.use((req, res, next) => {
    const controller = new AbortController();
    const gone = () => {
      if (!res.writableFinished) controller.abort();
    };
    res.once('close', gone);
    req.socket.once('close', gone);
    const environment = environmentFromHost(req.headers.host) ?? '';
    runInRequestScope({ key: `environment:${environment}`, signal: controller.signal }, next);
  });

  const address = (req: Request) => req.ip ?? req.socket.remoteAddress ?? 'unknown';
  // asked by every door before it authenticates: maintenance first, then guessing from the address
  const guard = async (req: Request): Promise<Refusal | null> => {
    const window = await opts.maintenance?.forEnvironment(environmentFromHost(req.headers.host));
    if (window) return { status: 503, ...describeMaintenance(window, clock.now()) };
    const blocked = await opts.rateLimit?.authAllowed(address(req));
    if (blocked && !blocked.allowed) {
      return {
        status: 429,
        message: `too many failed authentications from this address; retry in ${blocked.retryAfterSeconds} s`,
        retryAfterSeconds: blocked.retryAfterSeconds,
      };
    }
    return null;
  };
  const authFailed = (req: Request) => {
    opts.rateLimit?.authFailed(address(req)).catch((err: unknown) => opts.log.error({ err }, 'failed-auth counter'));
  };
  const limiter = opts.rateLimit;
  // one budget per token across v2, v3 and /trpc (the same key in each); null: the limit is off
  const limited = limiter
    ? async (key: string) => (await limiter.consume(key)) ?? { allowed: true, limit: 0, remaining: 0, retryAfterSeconds: 0 }
    : undefined;
  app.use(
    '/api/v2',
    createV2Router({ context, trustProxy: opts.trustProxy, log: opts.log, rateLimit: limited, guard, authFailed, ...opts.v2 }),
  );
  app.use('/api/v3', createV3Router({ context, log: opts.log, rateLimit: limited, guard, authFailed, ...opts.v3 }));
  // download_url of uploads and documents: for browser sessions, never API tokens
  app.use('/web/download', createBrowserDownloadRouter());

  // internal tools: the same procedures over HTTP, behind the same guards as v2 and v3
  app.use('/trpc', trpcDoor(opts, context, guard, authFailed));

  app.use((_req, res) => res.status(404).type('text/plain').send('Not found'));
  return app;
}

/** An error answer in tRPC's own shape, for what is refused before tRPC runs. */
function sendTrpcError(res: Response, code: TRPC_ERROR_CODE_KEY, message: string): void {
  const httpStatus = getHTTPStatusCodeFromError({ code } as Parameters<typeof getHTTPStatusCodeFromError>[0]);
  res.status(httpStatus).json({ error: { message, code: TRPC_ERROR_CODES_BY_KEY[code], data: { code, httpStatus } } });
}

function trpcDoor(
  opts: HttpAppOptions,
  context: (req: Request) => DomainContext,
  guard: (req: Request) => Promise<Refusal | null>,
  authFailed: (req: Request) => void,
) {
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
          authFailed(req);
          res.setHeader('WWW-Authenticate', 'Bearer');
          return sendTrpcError(res, 'UNAUTHORIZED', 'missing or invalid credentials');
        }
        if (kind === 'not_found') return sendTrpcError(res, 'NOT_FOUND', 'not found');
        throw err;
      }
      // one budget per token, whichever door it comes through
      if (opts.rateLimit && principal.kind === 'user' && principal.tokenId) {
        const decision = await opts.rateLimit.consume(`token:${principal.tokenId}`);
        if (decision) {
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
      opts.log.error({ err, requestId: req.headers['x-request-id'] }, 'trpc authentication failed');
      sendTrpcError(res, 'INTERNAL_SERVER_ERROR', 'internal error; the request id is in the X-Request-Id header');
    }
  });
  door.use(
    createExpressMiddleware({
      router: appRouter,
      maxBodySize: BODY_LIMIT_BYTES,
      maxBatchSize: opts.trpcMaxBatch ?? 10,
      createContext: ({ req, res }) => ({ ...context(req), principal: res.locals.principal as Principal }),
      onError: ({ error, path, req }) => {
        if (error.code === 'INTERNAL_SERVER_ERROR' && !(error.cause && 'kind' in error.cause)) {
          opts.log.error({ err: error, path, requestId: req.headers['x-request-id'] }, 'trpc error');
        }
      },
    }),
  );
  return door;
}
