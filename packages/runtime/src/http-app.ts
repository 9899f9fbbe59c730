import { DEFAULT_MAX_JSON_DEPTH } from '@bo/http';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import express, { type NextFunction, type Request, type Response } from 'express';
import { type PrismaClient, RequestGone, runInRequestScope } from '@bo/db';
import {
  type Clock,
  type DomainContext,
  type DomainServices,
  describeMaintenance,
  environmentFromHost,
  type MaintenanceReader,
  systemClock,
} from '@bo/domain';
import type { Logger } from 'pino';
import { answerJsonWithoutCopy } from './json-answer.js';
import { createGuard, type Guard } from './guard.js';
import { RequestShare, type RequestShareOptions } from './request-share.js';
import type { RateLimit } from './rate-limit.js';
import { type IdempotencyMiddleware, idempotency, type IdempotencyStore } from './idempotency.js';
import { recordRequest } from './metrics.js';
import { endRequestSpan, requestTracer, startRequestSpan } from './tracing.js';

/** What a mounted wire gets from the process: the domain context of a request, the log, the one guard of every door. */
export interface HttpMountContext {
  /** the domain context of a request (database, clock, services), without a principal */
  context(req: Request): DomainContext;
  log: Logger;
  /** every door's checks (transport, environment, credentials, rate limit, maintenance, declared right) */
  guard: Guard;
  /** calls in one /trpc batch */
  trpcMaxBatch: number;
  /** how deep a JSON body may nest (checked on the bytes, before parsing) */
  maxJsonDepth: number;
  /** `Idempotency-Key` on the writes of a door (after the guard and the body) */
  idempotency: IdempotencyMiddleware;
  /** the mount's table of routes, tried before express's router (see ClaimedRequest) */
  claim(claim: ClaimRequest): void;
}

/**
 * A request a mount answers from its own route table, before express's router sees it: the
 * mount's whole door (its guard, its route's handlers, its errors) with express's request and
 * response methods. Express's router costs a small read about a tenth of its Node time
 * (`docs/performance.md`, tenth session).
 */
export type ClaimedRequest = (req: Request, res: Response) => void;
/** a mount's route table: the request's run when the mount answers it itself, undefined to leave it to express */
export type ClaimRequest = (req: IncomingMessage) => ClaimedRequest | undefined;

/** One part of the HTTP surface (the v2 API, the v3 API, /trpc), mounted by whichever process serves it. */
export interface HttpMount {
  /** what it serves, for the start-up message */
  name: string;
  mount(app: express.Express, ctx: HttpMountContext): void;
  /** a command that tries it with a token, for the start-up message */
  tryIt?(base: string, token: { key: string; secret: string }): string;
  /**
   * The route template of a request this mount serves (`path`: the request's path, without its
   * query), for the metrics and the request's span: `/api/v2/crm/organization/:id`, never the raw
   * URL. undefined: not this mount's. Called once the answer is sent, so it costs the answer nothing.
   */
  routeOf?(req: Request, path: string): string | undefined;
}

/** what the metrics call a request that no mount claims, and a route that no mount knows */
const NO_DOOR = 'none';
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * An incoming X-Request-Id is kept when it is printable ASCII of at most 128 characters (no
 * leading or trailing space); otherwise the request gets an id of its own.
 */
const REQUEST_ID = /^[\x21-\x7e](?:[\x20-\x7e]{0,126}[\x21-\x7e])?$/;

export interface HttpAppOptions {
  prisma: PrismaClient;
  log: Logger;
  trustProxy: boolean;
  /** mounts' route tables tried before express's router (default true; see ClaimedRequest) */
  routeTable?: boolean;
  clock?: Clock;
  services?: DomainServices;
  rateLimit?: RateLimit | null;
  /** where `Idempotency-Key`s are kept; none: on the request's own pool */
  idempotencyStore?: IdempotencyStore | null;
  /** scheduled maintenance, read from the database (cached); none: never in maintenance */
  maintenance?: MaintenanceReader | null;
  /** calls in one /trpc batch (default 10) */
  trpcMaxBatch?: number;
  /** how deep a JSON body may nest (default 32) */
  maxJsonDepth?: number;
  /** the fair share of the process between environments (request-share.ts); absent or contended 0: none */
  share?: RequestShareOptions;
  mounts: HttpMount[];
}

/**
 * The mounts on one express app, behind request ids, with the health check and a plain 404 for the
 * rest; a request a mount claims from its own route table skips express's router, not what it does
 * for every request (request id, metrics, request scope).
 */
export function createHttpApp(opts: HttpAppOptions): RequestListener {
  const app = express();
  app.disable('x-powered-by');
  // list pages are large and change constantly: hashing each body for an ETag costs more than it saves
  app.set('etag', false);
  answerJsonWithoutCopy(app);
  app.set('trust proxy', opts.trustProxy);
  const clock = opts.clock ?? systemClock;

  /** the door (mount) and route template of a request, decided when its answer has gone */
  const routeOf = (req: Request): [string, string] => {
    const url = req.originalUrl;
    const q = url.indexOf('?');
    const path = q === -1 ? url : url.slice(0, q);
    if (path === '/healthz') return ['health', path];
    for (const m of opts.mounts) {
      const route = m.routeOf?.(req, path);
      if (route !== undefined) return [m.name, route];
    }
    return [NO_DOOR, UNMATCHED_ROUTE];
  };

  // Every answer of every door carries the request's id; every request is counted (and traced,
  // when spans are exported) once its response closes: 499 when the client went away first.
  // Answers what counts it, to be called when the response closes.
  const begin = (req: Request, res: Response): (() => void) => {
    const startedAt = performance.now();
    const incoming = req.headers['x-request-id'];
    const id = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    req.headers['x-request-id'] = id;
    res.setHeader('X-Request-Id', id);
    const tracer = requestTracer();
    const span = tracer ? startRequestSpan(tracer, req.method, req.path, id) : undefined;
    if (span) res.locals.span = span;
    return () => {
      const status = res.writableFinished ? res.statusCode : 499;
      const [door, route] = routeOf(req);
      recordRequest(door, req.method, route, status, (performance.now() - startedAt) / 1000);
      if (span) endRequestSpan(span, door, route, status);
    };
  };
  app.use((req, res, next) => {
    res.once('close', begin(req, res));
    next();
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
  // `counted`: begin's counting, on the same close listener (a claimed request has both at once;
  // a listener each cost its own add, wrapper and removal per request).
  const scoped = (req: Request, res: Response, next: () => void, counted?: () => void) => {
    const startedAt = performance.now();
    const signal = new RequestGone();
    const gone = () => {
      if (!res.writableFinished) signal.abort();
    };
    // the socket outlives the request on a kept-alive connection: listen to it for this request only
    // (held here: by the time the response closes, req.socket may already be detached and null)
    const socket = req.socket;
    socket.once('close', gone);
    res.once('close', () => {
      gone();
      socket.off('close', gone);
      counted?.();
    });
    const environment = environmentFromHost(req.headers.host) ?? '';
    runInRequestScope(
      {
        key: `environment:${environment}`,
        signal,
        startedAt,
        requestId: req.headers['x-request-id'] as string,
        trace: res.locals.span,
      },
      next,
    );
  };
  app.use((req: Request, res: Response, next: NextFunction) => scoped(req, res, next));

  const context = (req: Request): DomainContext => ({
    prisma: opts.prisma,
    principal: null,
    clock,
    requestId: req.headers['x-request-id'] as string,
    services: opts.services,
  });
  const claims: ClaimRequest[] = [];
  const ctx: HttpMountContext = {
    context,
    log: opts.log,
    guard: createGuard({
      context,
      trustProxy: opts.trustProxy,
      rateLimit: opts.rateLimit ?? null,
      maintenance: opts.maintenance ?? null,
      clock,
      log: opts.log,
      share: opts.share?.contended ? new RequestShare(opts.share) : null,
    }),
    trpcMaxBatch: opts.trpcMaxBatch ?? 10,
    maxJsonDepth: opts.maxJsonDepth ?? DEFAULT_MAX_JSON_DEPTH,
    idempotency: idempotency({ log: opts.log, store: opts.idempotencyStore ?? null }),
    claim: (claim) => {
      if (opts.routeTable !== false) claims.push(claim);
    },
  };
  for (const m of opts.mounts) m.mount(app, ctx);

  app.use((_req, res) => res.status(404).type('text/plain').send('Not found'));

  return (incoming: IncomingMessage, outgoing: ServerResponse) => {
    for (const claim of claims) {
      const run = claim(incoming);
      if (!run) continue;
      // what express's app.handle does before its router: the circular references, its request
      // and response methods (its settings: trust proxy, the JSON answer), the locals
      const req = incoming as Request;
      const res = outgoing as Response;
      req.res = res;
      res.req = req;
      Object.setPrototypeOf(req, app.request);
      Object.setPrototypeOf(res, app.response);
      res.locals = Object.create(null) as Response['locals'];
      req.originalUrl = req.url;
      scoped(req, res, () => run(req, res), begin(req, res));
      return;
    }
    app(incoming, outgoing);
  };
}
