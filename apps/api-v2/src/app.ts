import express, { type NextFunction, type Request, type RequestHandler, type Response, type Router } from 'express';
import {
  BadRequestError,
  createCaller,
  type DomainContext,
  type DomainError,
  preconditionOf,
  type UserPrincipal,
} from '@bo/domain';
import { admissionOf, type Guard, type IdempotencyMiddleware, idempotency, TransportSecurityError } from '@bo/runtime';
import { sendData, sendErrors, sendPlain } from './envelope.js';
import { type ErrorLogger, renderV2Error } from './errors.js';
import { DEFAULT_MAX_JSON_DEPTH, mountApiDocs, refuseDeepJson } from '@bo/http';
import { buildV2Document } from './openapi.js';
import { mountV2Operation, mountV2Resource, mountV2RowOperation, type RouteTable } from './resources/mount.js';
import { v2Operations, v2Resources, v2RowOperations } from './resources/index.js';
import { v2RouteRights } from './route-rights.js';

export interface V2Options {
  /** every door's guard: transport, environment, credentials, rate limit, maintenance, declared right */
  guard: Guard;
  log: ErrorLogger;
  /** extra routes mounted after authentication (uploads, documents, …) */
  extend?: (routes: RouteTable, helpers: V2Helpers) => void;
  /** requests whose JSON body the route reads itself (a chunk upload), so it is not parsed here */
  ownBody?: (req: Request) => boolean;
  /** requests whose body is a file's raw bytes (storage uploads): any Content-Type, read by the route as a stream */
  rawBody?: (req: Request) => boolean;
  /** how deep a JSON body may nest (default 32) */
  maxJsonDepth?: number;
  /** `Idempotency-Key` on writes (the process's, with its own store); none: one on the request's pool */
  idempotency?: IdempotencyMiddleware;
}

export interface V2Helpers {
  caller(req: Request): ReturnType<typeof createCaller>;
  principal(req: Request): UserPrincipal;
  sendData: typeof sendData;
  /** how deep a JSON body may nest (for routes that read their own body) */
  maxJsonDepth: number;
}

type Caller = ReturnType<typeof createCaller>;
interface Locals {
  caller: Caller;
  principal: UserPrincipal;
}

function locals(res: Response): Locals {
  return res.locals as Locals;
}

export function rawQuery(req: Request): string {
  const i = req.originalUrl.indexOf('?');
  return i === -1 ? '' : req.originalUrl.slice(i + 1);
}

/** The v2 REST adapter: wire contract only; every meaning is in the domain. */
export function createV2Router(opts: V2Options): Router {
  const app = express.Router();
  const { guard } = opts;

  /** the guard's refusals in the v2 envelope; TLS is refused in text/plain, as the contract says */
  const render = (err: DomainError, req: Request, res: Response) => {
    if (err instanceof TransportSecurityError) return sendPlain(res, 403, err.message);
    renderV2Error(err, req, res, opts.log);
  };

  // v2 is TLS-only: refused before anything else runs, the public reference included
  app.use(guard.transportOnly(render));

  // the reference is public: mounted before authentication
  mountApiDocs(app, 'Business operations API v2', () => buildV2Document(v2Resources, v2Operations));

  // the one guard; the route's declared right is checked here, before the body is read
  // a raw-body upload streams its body at the client's pace: not counted in the environment's share
  app.use(
    guard.door({
      credentials: 'token',
      right: v2RouteRights(v2Resources, v2Operations, v2RowOperations),
      render,
      outsideShare: opts.rawBody,
    }),
  );
  // bodies are JSON, at most 1 MB; a POST or PUT without the JSON content type is refused; then
  // safe retries: a write with an Idempotency-Key runs once (a body read as a stream has no hash to
  // compare: not those).
  const json = express.json({ limit: '1mb', strict: false, verify: refuseDeepJson(opts.maxJsonDepth ?? DEFAULT_MAX_JSON_DEPTH) });
  const idempotent = (opts.idempotency ?? idempotency({ log: opts.log }))((err, req, res) =>
    renderV2Error(err, req, res, opts.log),
  );
  // the caller, then the body (one layer: express walks its layers one by one for every request)
  app.use((req, res, next) => {
    const { principal, context } = admissionOf(res);
    res.locals.principal = principal;
    // If-Match on a write: the write compares it with the record it locks (412 when it changed)
    const precondition = req.method === 'GET' ? undefined : preconditionOf(req.get('if-match'));
    // v2 tolerates keys it does not know (its reads' own read-only keys sent back, older clients' keys): dropped, as ever
    const v2Context: DomainContext = { ...(context as DomainContext), unknownInputKeys: 'drop' };
    res.locals.caller = createCaller(precondition ? { ...v2Context, precondition } : v2Context);
    if (opts.rawBody?.(req)) {
      next();
      return;
    }
    if ((req.method === 'POST' || req.method === 'PUT') && !req.is('application/json')) {
      sendErrors(res, 415, ['Content-Type must be application/json']);
      return;
    }
    if (opts.ownBody?.(req)) {
      next();
      return;
    }
    json(req, res, (err?: unknown) => (err ? next(err) : idempotent(req, res, next)));
  });

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
    maxJsonDepth: opts.maxJsonDepth ?? DEFAULT_MAX_JSON_DEPTH,
  };
  // the extension's routes first, as they always were: within a module, the first mounted answers
  const routes = routersByModule(app);
  opts.extend?.(routes, helpers);
  for (const resource of v2Resources) mountV2Resource(routes, resource, bodyObject);
  for (const operation of v2Operations) mountV2Operation(routes, operation, bodyObject);
  for (const operation of v2RowOperations) mountV2RowOperation(routes, operation, bodyObject);

  app.use((_req, res) => sendErrors(res, 404, ['no such endpoint']));
  app.use((err: unknown, req: Request, res: Response, _next: NextFunction) => renderV2Error(err, req, res, opts.log));
  return app;
}

/**
 * The routes of resources and operations, one router per first path segment (`crm`, `projects`, …;
 * every declared path starts with a fixed one), reached from `app` by one map lookup. Express tries
 * a router's routes one by one: on one router, a resource mounted late was reached after the
 * routes of every resource mounted before it (about 800 of them). Routes of one module keep their
 * order, and no request can match routes of two modules, so the first mounted route still answers.
 */
function routersByModule(app: Router): RouteTable {
  const byModule = new Map<string, Router>();
  const routerOf = (path: string): Router => {
    const module = (path.split('/')[1] ?? '').toLowerCase();
    let router = byModule.get(module);
    if (!router) {
      router = express.Router();
      byModule.set(module, router);
    }
    return router;
  };
  app.use((req, res, next) => {
    const path = req.path;
    const end = path.indexOf('/', 1);
    // routing is case-insensitive, as express's own
    const router = byModule.get((end === -1 ? path.slice(1) : path.slice(1, end)).toLowerCase());
    if (router) router(req, res, next);
    else next();
  });
  const on =
    (method: keyof RouteTable) =>
    (paths: string | string[], ...handlers: RequestHandler[]) => {
      for (const path of typeof paths === 'string' ? [paths] : paths) routerOf(path)[method](path, ...handlers);
      return table;
    };
  const table = { get: on('get'), post: on('post'), put: on('put'), delete: on('delete') } as unknown as RouteTable;
  return table;
}
