import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import {
  BadRequestError,
  createCaller,
  type DomainContext,
  environmentFromHost,
  NotFoundError,
  type UserPrincipal,
  toDomainError,
} from '@bo/domain';
import { sendData, sendErrors, sendPlain } from './envelope.js';
import { type ErrorLogger, renderV2Error } from './errors.js';
import { mountApiDocs } from '@bo/http';
import { buildV2Document } from './openapi.js';
import { mountV2Operation, mountV2Resource, mountV2RowOperation } from './resources/mount.js';
import { v2Operations, v2Resources, v2RowOperations } from './resources/index.js';

export type RateLimiter = (
  key: string,
) => Promise<{ allowed: boolean; limit: number; remaining: number; retryAfterSeconds: number }>;

/** A door's refusal decided outside the contract (maintenance, failed-auth throttle), rendered in its shape. */
export interface DoorRefusal {
  status: 429 | 503;
  message: string;
  retryAfterSeconds?: number;
}

export interface V2Options {
  /** builds the domain context of a request (database, clock, services) without a principal */
  context: (req: Request) => DomainContext;
  /** honour X-Forwarded-Proto from a trusted proxy */
  trustProxy: boolean;
  log: ErrorLogger;
  /** counts a request of a token; answers whether it may go on */
  rateLimit?: RateLimiter;
  /** asked before authentication: maintenance, too many failed authentications from the address */
  guard?: (req: Request) => Promise<DoorRefusal | null>;
  /** told of each failed authentication */
  authFailed?: (req: Request) => Promise<void>;
  /** extra routes mounted after authentication (uploads, documents, …) */
  extend?: (router: Router, helpers: V2Helpers) => void;
  /** requests whose JSON body the route reads itself (a chunk upload), so it is not parsed here */
  ownBody?: (req: Request) => boolean;
  /** requests whose body is a file's raw bytes (storage uploads): any Content-Type, read by the route as a stream */
  rawBody?: (req: Request) => boolean;
}

export interface V2Helpers {
  caller(req: Request): ReturnType<typeof createCaller>;
  principal(req: Request): UserPrincipal;
  sendData: typeof sendData;
}

type Caller = ReturnType<typeof createCaller>;
interface Locals {
  caller: Caller;
  principal: UserPrincipal;
}

function locals(res: Response): Locals {
  return res.locals as Locals;
}

function isSecure(req: Request, trustProxy: boolean): boolean {
  if (trustProxy) {
    const forwarded = req.headers['x-forwarded-proto'];
    if (typeof forwarded === 'string') return forwarded.split(',')[0]?.trim() === 'https';
  }
  return Boolean((req.socket as { encrypted?: boolean }).encrypted);
}

export function rawQuery(req: Request): string {
  const i = req.originalUrl.indexOf('?');
  return i === -1 ? '' : req.originalUrl.slice(i + 1);
}

/** The v2 REST adapter: wire contract only; every meaning is in the domain. */
export function createV2Router(opts: V2Options): Router {
  const app = express.Router();

  // v2 is TLS-only: refuse before anything else runs
  app.use((req, res, next) => {
    if (!isSecure(req, opts.trustProxy)) {
      sendPlain(res, 403, 'TLS is required: call this API over https.');
      return;
    }
    next();
  });

  // the reference is public: mounted before authentication
  mountApiDocs(app, 'Business operations API v2', () => buildV2Document(v2Resources, v2Operations));

  app.use(async (req, res, next) => {
    try {
      const ctx = opts.context(req);
      const environment = environmentFromHost(req.headers.host);
      if (!environment) throw new NotFoundError('environment');
      const header = (name: string) => {
        const v = req.headers[name];
        return typeof v === 'string' && v.length > 0 ? v : null;
      };
      const refusal = await opts.guard?.(req);
      if (refusal) {
        if (refusal.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(refusal.retryAfterSeconds));
        sendErrors(res, refusal.status, [refusal.message]);
        return;
      }
      const anonymous = createCaller({ ...ctx, principal: null });
      const principal = await anonymous.auth
        .authenticate({
          environment,
          key: header('authentication-key'),
          secret: header('authentication-secret'),
        })
        .catch(async (err: unknown) => {
          if (toDomainError(err)?.kind === 'unauthenticated') await opts.authFailed?.(req);
          throw err;
        });
      res.locals.principal = principal;
      res.locals.caller = createCaller({ ...ctx, principal });
      if (opts.rateLimit && principal.tokenId) {
        const decision = await opts.rateLimit(`token:${principal.tokenId}`);
        res.setHeader('X-RateLimit-Limit', String(decision.limit));
        res.setHeader('X-RateLimit-Remaining', String(decision.remaining));
        if (!decision.allowed) {
          res.setHeader('Retry-After', String(decision.retryAfterSeconds));
          sendErrors(res, 429, [
            `rate limit of ${decision.limit} requests per minute exceeded; retry in ${decision.retryAfterSeconds} s`,
          ]);
          return;
        }
      }
      next();
    } catch (err) {
      if (err instanceof NotFoundError || (err as { cause?: unknown })?.cause instanceof NotFoundError) {
        // an unknown environment reveals nothing: not even that credentials were checked
        sendErrors(res, 404, ['not found']);
        return;
      }
      next(err);
    }
  });

  // bodies are JSON, at most 1 MB; a POST or PUT without the JSON content type is refused
  app.use((req, res, next) => {
    if (opts.rawBody?.(req)) {
      next();
      return;
    }
    if ((req.method === 'POST' || req.method === 'PUT') && !req.is('application/json')) {
      sendErrors(res, 415, ['Content-Type must be application/json']);
      return;
    }
    next();
  });
  const json = express.json({ limit: '1mb', strict: false });
  app.use((req, res, next) => (opts.ownBody?.(req) || opts.rawBody?.(req) ? next() : json(req, res, next)));

  const bodyObject = (req: Request): Record<string, unknown> => {
    const body: unknown = req.body;
    if (!body || typeof body !== 'object' || Array.isArray(body)) {
      throw new BadRequestError('the body must be a JSON object');
    }
    return body as Record<string, unknown>;
  };

  const helpers: V2Helpers = {
    caller: (req) => locals(req.res as Response).caller,
    principal: (req) => locals(req.res as Response).principal,
    sendData,
  };
  opts.extend?.(app, helpers);

  for (const resource of v2Resources) mountV2Resource(app, resource, bodyObject);
  for (const operation of v2Operations) mountV2Operation(app, operation, bodyObject);
  for (const operation of v2RowOperations) mountV2RowOperation(app, operation, bodyObject);

  app.use((_req, res) => sendErrors(res, 404, ['no such endpoint']));
  app.use((err: unknown, req: Request, res: Response, _next: NextFunction) => renderV2Error(err, req, res, opts.log));
  return app;
}
