import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import {
  type AnyResource,
  BadRequestError,
  createCaller,
  type DomainContext,
  environmentFromHost,
  NotFoundError,
  type UserPrincipal,
  resourcePath,
  resources,
  toDomainError,
} from '@bo/domain';
import { sendData, sendErrors, sendPlain } from './envelope.js';
import { type ErrorLogger, renderV2Error } from './errors.js';
import { parseListParams, parseSelect } from './query-language.js';
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
  authFailed?: (req: Request) => void;
  /** extra routes mounted after authentication (uploads, documents, …) */
  extend?: (router: Router, helpers: V2Helpers) => void;
  /** requests whose JSON body the route reads itself (a chunk upload), so it is not parsed here */
  ownBody?: (req: Request) => boolean;
}

export interface V2Helpers {
  caller(req: Request): ReturnType<typeof createCaller>;
  principal(req: Request): UserPrincipal;
  sendData: typeof sendData;
}

type Caller = ReturnType<typeof createCaller>;
type ResourceCaller = Record<'list' | 'get' | 'create' | 'update' | 'delete', (input: unknown) => Promise<unknown>>;

interface Locals {
  caller: Caller;
  principal: UserPrincipal;
}

function locals(res: Response): Locals {
  return res.locals as Locals;
}

function resourceCaller(caller: Caller, def: AnyResource): ResourceCaller {
  let node: unknown = caller;
  for (const seg of resourcePath(def)) node = (node as Record<string, unknown>)[seg];
  return node as ResourceCaller;
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
        .catch((err: unknown) => {
          if (toDomainError(err)?.kind === 'unauthenticated') opts.authFailed?.(req);
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
    if ((req.method === 'POST' || req.method === 'PUT') && !req.is('application/json')) {
      sendErrors(res, 415, ['Content-Type must be application/json']);
      return;
    }
    next();
  });
  const json = express.json({ limit: '1mb', strict: false });
  app.use((req, res, next) => (opts.ownBody?.(req) ? next() : json(req, res, next)));

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

  for (const def of resources) {
    const base = `/${def.name}`;
    const call = (res: Response) => resourceCaller(locals(res).caller, def);

    app.get(base, async (req, res) => {
      const p = parseListParams(rawQuery(req));
      const result = (await call(res).list({
        query: { where: p.where, orderBy: p.orderBy, offset: p.offset, limit: p.limit, count: p.metadata.has('count') },
        view: 'v2',
        select: p.select,
      })) as { items: unknown[]; count: number | null };
      let metadata: Record<string, number> | undefined;
      if (p.metadata.size) {
        metadata = {};
        if (p.metadata.has('count')) metadata.count = result.count ?? 0;
        if (p.metadata.has('limit')) metadata.limit = p.limit;
        if (p.metadata.has('offset')) metadata.offset = p.offset;
      }
      sendData(res, result.items, metadata);
    });

    app.get(`${base}/:id`, async (req, res) => {
      const select = new URLSearchParams(rawQuery(req)).get('select');
      const data = await call(res).get({
        id: req.params.id,
        view: 'v2',
        select: select ? parseSelect(select) : undefined,
      });
      sendData(res, data);
    });

    if (def.create) {
      app.post(base, async (req, res) => {
        const result = await call(res).create({ data: bodyObject(req) });
        sendData(res, result);
      });
    }
    if (def.update) {
      app.put(`${base}/:id`, async (req, res) => {
        const result = await call(res).update({ id: req.params.id, data: bodyObject(req) });
        sendData(res, result);
      });
    }
    // extra row operations the resource declares (duplicate, planningBudget, …)
    for (const action of def.actions ?? []) {
      const path = `${base}/:id/${action.name}`;
      const run = async (req: Request, res: Response) => {
        const data =
          action.method === 'GET'
            ? Object.fromEntries(new URLSearchParams(rawQuery(req)))
            : req.body === undefined
              ? {}
              : bodyObject(req);
        const procedure = (call(res) as unknown as Record<string, (input: unknown) => Promise<unknown>>)[action.name];
        if (!procedure) throw new NotFoundError(`${action.name} on ${def.name}`);
        sendData(res, await procedure({ id: req.params.id, data }));
      };
      if (action.method === 'GET') app.get(path, run);
      else app.post(path, run);
    }
    if (def.remove !== false) {
      app.delete(`${base}/:id`, async (req, res) => {
        const result = await call(res).delete({ id: req.params.id });
        sendData(res, result);
      });
    }
  }

  app.use((_req, res) => sendErrors(res, 404, ['no such endpoint']));
  app.use((err: unknown, req: Request, res: Response, _next: NextFunction) => renderV2Error(err, req, res, opts.log));
  return app;
}
