import { randomUUID } from 'node:crypto';
import express, { type Express, type Request } from 'express';
import { createExpressMiddleware } from '@trpc/server/adapters/express';
import type { PrismaClient } from '@bo/db';
import { createBrowserDownloadRouter, createV2Router, type V2Options } from '@bo/api-v2';
import { createV3Router, type V3Options } from '@bo/api-v3';
import {
  appRouter,
  type Clock,
  createCaller,
  type DomainContext,
  type DomainServices,
  environmentFromHost,
  systemClock,
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
  v2?: Pick<V2Options, 'extend' | 'ownBody'>;
  v3?: Pick<V3Options, 'endpoints'>;
}

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
      res.json({ status: 'ok' });
    } catch {
      res.status(503).json({ status: 'unavailable', reason: 'the database does not answer' });
    }
  });

  const rateLimit = opts.rateLimit ? (key: string) => (opts.rateLimit as RateLimit).consume(key) : undefined;
  app.use('/api/v2', createV2Router({ context, trustProxy: opts.trustProxy, log: opts.log, rateLimit, ...opts.v2 }));
  app.use('/api/v3', createV3Router({ context, log: opts.log, rateLimit, ...opts.v3 }));
  // download_url of uploads and documents: for browser sessions, never API tokens
  app.use('/web/download', createBrowserDownloadRouter());

  // internal tools: the same procedures over HTTP, with the same bearer tokens as v3
  app.use(
    '/trpc',
    createExpressMiddleware({
      router: appRouter,
      createContext: async ({ req }) => {
        const ctx = context(req);
        const environment = environmentFromHost(req.headers.host);
        const m = /^Bearer\s+([^:\s]+):(\S+)$/i.exec(req.headers.authorization ?? '');
        if (!environment || !m) return ctx;
        try {
          const principal = await createCaller(ctx).auth.authenticate({ environment, key: m[1] ?? null, secret: m[2] ?? null });
          return { ...ctx, principal };
        } catch {
          return ctx;
        }
      },
      onError: ({ error, path }) => {
        if (error.code === 'INTERNAL_SERVER_ERROR' && !(error.cause && 'kind' in error.cause)) {
          opts.log.error({ err: error, path }, 'trpc error');
        }
      },
    }),
  );

  app.use((_req, res) => res.status(404).type('text/plain').send('Not found'));
  return app;
}
