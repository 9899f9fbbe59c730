import express, { type NextFunction, type Request, type RequestHandler, type Response, type Router } from 'express';
import {
  BadRequestError,
  createCaller,
  type DomainContext,
  type DomainError,
  preconditionOf,
  type UserPrincipal,
} from '@bo/domain';
import {
  admissionOf,
  type ClaimRequest,
  type Guard,
  type IdempotencyMiddleware,
  idempotency,
  TransportSecurityError,
} from '@bo/runtime';
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

/** where the v2 router is mounted (the claimed requests' base URL) */
const BASE = '/api/v2';

/**
 * The v2 REST adapter: wire contract only; every meaning is in the domain. `router` serves every
 * v2 request; `claim` answers the GET requests of its route table without express's router (the
 * same layers and handlers, run in the same order; see ClaimedRequest in @bo/runtime).
 */
export function createV2Router(opts: V2Options): { router: Router; claim: ClaimRequest } {
  const app = express.Router();
  const { guard } = opts;

  /** the guard's refusals in the v2 envelope; TLS is refused in text/plain, as the contract says */
  const render = (err: DomainError, req: Request, res: Response) => {
    if (err instanceof TransportSecurityError) return sendPlain(res, 403, err.message);
    renderV2Error(err, req, res, opts.log);
  };

  // v2 is TLS-only: refused before anything else runs, the public reference included
  const transportLayer = guard.transportOnly(render);
  app.use(transportLayer);

  // the reference is public: mounted before authentication
  mountApiDocs(app, 'Business operations API v2', () => buildV2Document(v2Resources, v2Operations));

  // the one guard; the route's declared right is checked here, before the body is read
  // a raw-body upload streams its body at the client's pace: not counted in the environment's share
  const doorLayer = guard.door({
    credentials: 'token',
    right: v2RouteRights(v2Resources, v2Operations, v2RowOperations),
    render,
    outsideShare: opts.rawBody,
  });
  app.use(doorLayer);
  // bodies are JSON, at most 1 MB; a POST or PUT without the JSON content type is refused; then
  // safe retries: a write with an Idempotency-Key runs once (a body read as a stream has no hash to
  // compare: not those).
  const json = express.json({ limit: '1mb', strict: false, verify: refuseDeepJson(opts.maxJsonDepth ?? DEFAULT_MAX_JSON_DEPTH) });
  const idempotent = (opts.idempotency ?? idempotency({ log: opts.log }))((err, req, res) =>
    renderV2Error(err, req, res, opts.log),
  );
  // the caller, then the body (one layer: express walks its layers one by one for every request)
  const callerAndBody: RequestHandler = (req, res, next) => {
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
  };
  app.use(callerAndBody);

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

  const notFound: RequestHandler = (_req, res) => sendErrors(res, 404, ['no such endpoint']);
  const failed = (err: unknown, req: Request, res: Response, _next: NextFunction) => renderV2Error(err, req, res, opts.log);
  app.use(notFound);
  app.use(failed);

  const claim: ClaimRequest = (incoming) => {
    // only a GET whose path the table reads for sure; anything else (HEAD, the reference,
    // another spelling of the base) goes the express way, which answers it as ever
    if (incoming.method !== 'GET') return undefined;
    const url = incoming.url ?? '';
    if (!url.startsWith(`${BASE}/`)) return undefined;
    const q = url.indexOf('?');
    const path = q === -1 ? url.slice(BASE.length) : url.slice(BASE.length, q);
    const matched = routes.matchGet(path);
    if (!matched) return undefined;
    return (req, res) => {
      // as express has them inside the router mounted at the base
      req.url = url.slice(BASE.length);
      req.baseUrl = BASE;
      // the v2 router's last two layers; one that cannot answer (the answer had begun: a stream cut
      // short) ends the connection, as express's final handler does, never the process
      const finish = (err?: unknown) => {
        try {
          if (err) failed(err, req, res, () => {});
          else notFound(req, res, () => {});
        } catch {
          res.destroy();
        }
      };
      runLayers([transportLayer, doorLayer, callerAndBody], req, res, (err) =>
        err ? finish(err) : routes.runGet(matched, req, res, finish),
      );
    };
  };
  return { router: app, claim };
}

/**
 * Runs express-style layers in order: `next()` goes on, `next(err)` (or a throw, or a rejected
 * promise) ends with the error; `done` after the last.
 */
function runLayers(layers: RequestHandler[], req: Request, res: Response, done: (err?: unknown) => void): void {
  let i = 0;
  const next = (err?: unknown) => {
    if (err === 'route' || err === 'router') return done();
    if (err !== undefined && err !== null) return done(err);
    const layer = layers[i++];
    if (!layer) return done();
    try {
      const ran: unknown = layer(req, res, next);
      if (ran instanceof Promise) ran.then(undefined, (e: unknown) => next(e ?? new Error('a route rejected')));
    } catch (e) {
      next(e ?? new Error('a route threw'));
    }
  };
  next();
}

/** a GET route of the table: its template's segments (literals lower-cased, `:name` parameters) and handlers */
interface TableRoute {
  template: string;
  segments: { literal?: string; param?: string }[];
  handlers: RequestHandler[];
}
interface MatchedGet {
  /** the routes that match, in the order they were mounted: a handler calling next() hands on to the next */
  routes: { route: TableRoute; params: Record<string, string> }[];
}

const PARAM = /^:([A-Za-z_][A-Za-z0-9_]*)$/;
const LITERAL = /^[A-Za-z0-9._~-]+$/;
// a path the table compares as express does: ASCII, no empty segment (express then matches no route of ours either)
const PLAIN_PATH = /^(?:\/[\x21-\x7e]+)+\/?$/;

function templateSegments(template: string): TableRoute['segments'] | null {
  const out: TableRoute['segments'] = [];
  for (const part of template.split('/').slice(1)) {
    const p = PARAM.exec(part);
    if (p) out.push({ param: p[1] as string });
    else if (LITERAL.test(part)) out.push({ literal: part.toLowerCase() });
    else return null;
  }
  return out;
}

/** the parameters of a route for the path's segments; undefined: no match; null: a parameter not decodable */
function matchSegments(route: TableRoute, parts: string[]): Record<string, string> | undefined | null {
  if (parts.length !== route.segments.length) return undefined;
  let params: Record<string, string> | undefined;
  for (let i = 0; i < parts.length; i++) {
    const seg = route.segments[i] as TableRoute['segments'][number];
    const part = parts[i] as string;
    if (seg.literal !== undefined) {
      if (part.toLowerCase() !== seg.literal) return undefined;
      continue;
    }
    try {
      params ??= {};
      params[seg.param as string] = decodeURIComponent(part);
    } catch {
      return null;
    }
  }
  return params ?? {};
}

/**
 * The routes of resources and operations, one router per first path segment (`crm`, `projects`, …;
 * every declared path starts with a fixed one), reached from `app` by one map lookup. Express tries
 * a router's routes one by one: on one router, a resource mounted late was reached after the
 * routes of every resource mounted before it (about 800 of them). Routes of one module keep their
 * order, and no request can match routes of two modules, so the first mounted route still answers.
 */
function routersByModule(app: Router): RouteTable & {
  matchGet(path: string): MatchedGet | undefined;
  runGet(matched: MatchedGet, req: Request, res: Response, done: (err?: unknown) => void): void;
} {
  const byModule = new Map<string, Router>();
  // the GET routes of each module, in mount order, for claimed requests; null: a module with a
  // template the table does not read (its requests stay express's)
  const getsByModule = new Map<string, TableRoute[] | null>();
  const moduleOf = (path: string) => (path.split('/')[1] ?? '').toLowerCase();
  const routerOf = (path: string): Router => {
    const module = moduleOf(path);
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
  const tableGet = (template: string, handlers: RequestHandler[]) => {
    const module = moduleOf(template);
    const gets = getsByModule.get(module);
    if (gets === null) return;
    const segments = templateSegments(template);
    if (!segments) getsByModule.set(module, null);
    else if (gets) gets.push({ template, segments, handlers });
    else getsByModule.set(module, [{ template, segments, handlers }]);
  };
  const on =
    (method: keyof RouteTable) =>
    (paths: string | string[], ...handlers: RequestHandler[]) => {
      for (const path of typeof paths === 'string' ? [paths] : paths) {
        routerOf(path)[method](path, ...handlers);
        if (method === 'get') tableGet(path, handlers);
      }
      return table;
    };
  const table = {
    get: on('get'),
    post: on('post'),
    put: on('put'),
    delete: on('delete'),
    matchGet(path: string): MatchedGet | undefined {
      if (!PLAIN_PATH.test(path)) return undefined;
      const parts = path.slice(1).split('/');
      // one trailing slash is the same path, as express's non-strict routing has it
      if (parts.length > 1 && parts[parts.length - 1] === '') parts.pop();
      const gets = getsByModule.get((parts[0] as string).toLowerCase());
      if (!gets) return undefined;
      const routes: MatchedGet['routes'] = [];
      for (const route of gets) {
        const params = matchSegments(route, parts);
        if (params === null) return undefined;
        if (params) routes.push({ route, params });
      }
      return routes.length > 0 ? { routes } : undefined;
    },
    runGet(matched: MatchedGet, req: Request, res: Response, done: (err?: unknown) => void): void {
      let i = 0;
      const nextRoute = (err?: unknown) => {
        if (err) return done(err);
        const m = matched.routes[i++];
        if (!m) return done();
        req.params = m.params;
        (req as { route?: unknown }).route = { path: m.route.template };
        runLayers(m.route.handlers, req, res, nextRoute);
      };
      nextRoute();
    },
  };
  return table as unknown as ReturnType<typeof routersByModule>;
}
