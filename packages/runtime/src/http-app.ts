import { randomUUID } from 'node:crypto';
import express, { type Express, type Request } from 'express';
import type { PrismaClient } from '@bo/db';
import { type Clock, type DomainContext, type DomainServices, systemClock } from '@bo/domain';
import type { Logger } from 'pino';
import type { RateLimitDecision } from './rate-limit.js';

/** What a mounted wire gets from the process: the domain context of a request, the log, the shared rate limit. */
export interface HttpMountContext {
  /** the domain context of a request (database, clock, services), without a principal */
  context(req: Request): DomainContext;
  log: Logger;
  /** honour X-Forwarded-Proto from a trusted proxy */
  trustProxy: boolean;
  /** counts a request of a token (v2 and v3 together); absent when the limit is off */
  rateLimit?: (key: string) => Promise<RateLimitDecision>;
}

/** One part of the HTTP surface (the v2 API, the v3 API, /trpc), mounted by whichever process serves it. */
export interface HttpMount {
  /** what it serves, for the start-up message */
  name: string;
  mount(app: Express, ctx: HttpMountContext): void;
  /** a command that tries it with a token, for the start-up message */
  tryIt?(base: string, token: { key: string; secret: string }): string;
}

export interface HttpAppOptions {
  prisma: PrismaClient;
  log: Logger;
  trustProxy: boolean;
  clock?: Clock;
  services?: DomainServices;
  rateLimit?: HttpMountContext['rateLimit'];
  mounts: HttpMount[];
}

/** The mounts on one express app, behind request ids, with the health check and a plain 404 for the rest. */
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

  app.get('/healthz', async (_req, res) => {
    try {
      await opts.prisma.$queryRawUnsafe('SELECT 1');
      res.json({ status: 'ok' });
    } catch {
      res.status(503).json({ status: 'unavailable', reason: 'the database does not answer' });
    }
  });

  const ctx: HttpMountContext = {
    context: (req) => ({
      prisma: opts.prisma,
      principal: null,
      clock,
      requestId: req.headers['x-request-id'] as string,
      services: opts.services,
    }),
    log: opts.log,
    trustProxy: opts.trustProxy,
    rateLimit: opts.rateLimit,
  };
  for (const m of opts.mounts) m.mount(app, ctx);

  app.use((_req, res) => res.status(404).type('text/plain').send('Not found'));
  return app;
}
