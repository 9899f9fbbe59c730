import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import {
  createCaller,
  type DomainContext,
  environmentFromHost,
  NotFoundError,
  toDomainError,
  UnauthenticatedError,
  ValidationError,
  violationsFromZod,
} from '@bo/domain';
import { type Endpoint, endpoints as defaultEndpoints } from './endpoints/index.js';
import type { CommandEndpoint } from './endpoints/types.js';
import { listCondition, parseFilters, parsePaging } from './paging.js';
import { type ErrorLogger, problem, renderV3Error, sendProblem } from './problem.js';
import { mountApiDocs } from '@bo/http';
import { buildOpenApiDocument } from './openapi.js';

export interface V3Options {
  context: (req: Request) => DomainContext;
  log: ErrorLogger;
  /** counts a request of a token; answers whether it may go on */
  rateLimit?: (key: string) => Promise<{ allowed: boolean; limit: number; remaining: number; retryAfterSeconds: number }>;
  /** asked before authentication: maintenance, too many failed authentications from the address */
  guard?: (req: Request) => Promise<{ status: 429 | 503; message: string; retryAfterSeconds?: number } | null>;
  /** told of each failed authentication */
  authFailed?: (req: Request) => Promise<void>;
  /** endpoints beyond the built-in table (added by modules that own them) */
  endpoints?: Record<string, Endpoint>;
}

type Caller = ReturnType<typeof createCaller>;

/**
 * A typed command: the body checked against its v3 request schema, mapped to the
 * domain input, the procedure called, and violations rendered in v3 names.
 */
async function runCommand(
  res: Response,
  caller: Caller,
  endpoint: CommandEndpoint<unknown, unknown, unknown>,
  body: unknown,
  id: string | undefined,
) {
  const parsed = endpoint.doc.request.schema.safeParse(body);
  if (!parsed.success) {
    // a caller without the right hears 403 before anything about the body: the procedure checks
    // rights before it reads its input, so asking it with no input answers exactly that
    await endpoint
      .call(caller)(undefined)
      .catch((err: unknown) => {
        const domain = toDomainError(err);
        if (domain && (domain.kind === 'forbidden' || domain.kind === 'unauthenticated')) throw domain;
      });
    throw new ValidationError(violationsFromZod(parsed.error));
  }
  const input = endpoint.mapInput ? endpoint.mapInput(parsed.data, id) : parsed.data;
  let out: unknown;
  try {
    out = await endpoint.call(caller)(input);
  } catch (err) {
    const domain = toDomainError(err);
    const paths = endpoint.paths;
    if (paths && domain instanceof ValidationError) {
      throw new ValidationError(domain.violations.map((v) => ({ ...v, path: paths(v.path) })));
    }
    throw err;
  }
  return res.status(endpoint.status).json(endpoint.map ? await endpoint.map(out, caller) : out);
}

function rawQuery(req: Request): URLSearchParams {
  const i = req.originalUrl.indexOf('?');
  return new URLSearchParams(i === -1 ? '' : req.originalUrl.slice(i + 1));
}

/** `Authorization: Bearer <key>:<secret>` */
function bearer(req: Request): { key: string | null; secret: string | null } {
  const header = req.headers.authorization ?? '';
  const m = /^Bearer\s+([^:\s]+):(\S+)$/i.exec(header.trim());
  return m ? { key: m[1] ?? null, secret: m[2] ?? null } : { key: null, secret: null };
}

/** The v3 RPC adapter: `/{entity}.{action}[/{id}]`, strict input, problem details. */
export function createV3Router(opts: V3Options): Router {
  const table = new Map<string, Endpoint>(Object.entries(defaultEndpoints));
  const app = express.Router();

  // the reference is public: mounted before authentication
  mountApiDocs(app, 'Business operations API v3', () => buildOpenApiDocument(Object.fromEntries(table)));

  app.use(async (req, res, next) => {
    try {
      const environment = environmentFromHost(req.headers.host);
      if (!environment) throw new NotFoundError('environment');
      const refusal = await opts.guard?.(req);
      if (refusal) {
        if (refusal.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(refusal.retryAfterSeconds));
        return sendProblem(req, res, problem(refusal.status, refusal.message));
      }
      const ctx = opts.context(req);
      const principal = await createCaller({ ...ctx, principal: null })
        .auth.authenticate({ environment, ...bearer(req) })
        .catch(async (err: unknown) => {
          if (((err as { cause?: unknown })?.cause ?? err) instanceof UnauthenticatedError) await opts.authFailed?.(req);
          throw err;
        });
      res.locals.caller = createCaller({ ...ctx, principal });
      if (opts.rateLimit && principal.tokenId) {
        const decision = await opts.rateLimit(`token:${principal.tokenId}`);
        res.setHeader('X-RateLimit-Limit', String(decision.limit));
        res.setHeader('X-RateLimit-Remaining', String(decision.remaining));
        if (!decision.allowed) {
          res.setHeader('Retry-After', String(decision.retryAfterSeconds));
          return sendProblem(req, res, problem(429, `Rate limit of ${decision.limit} requests per minute exceeded.`));
        }
      }
      next();
    } catch (err) {
      const cause = (err as { cause?: unknown })?.cause ?? err;
      if (cause instanceof NotFoundError) return sendProblem(req, res, problem(404, 'Not found.'));
      if (cause instanceof UnauthenticatedError) {
        res.setHeader('WWW-Authenticate', 'Bearer');
        return sendProblem(req, res, problem(401, 'Missing or invalid credentials.'));
      }
      next(err);
    }
  });

  app.use((req, res, next) => {
    if (req.method === 'POST' && !req.is('application/json')) {
      return sendProblem(req, res, problem(415, 'Content-Type must be application/json.'));
    }
    next();
  });
  app.use(express.json({ limit: '1mb', strict: false }));

  const handle = async (req: Request, res: Response, name: string, id: string | undefined) => {
    // own entries only: `constructor`, `__proto__`, `toString`, … are names of nothing here
    const endpoint = table.get(name);
    if (!endpoint) return sendProblem(req, res, problem(404, `There is no endpoint ${name}.`));
    const isQuery = endpoint.kind !== 'command';
    if (isQuery && req.method !== 'GET') {
      res.setHeader('Allow', 'GET');
      return sendProblem(req, res, problem(405, `${name} is a query: use GET.`));
    }
    if (!isQuery && req.method !== 'POST') {
      res.setHeader('Allow', 'POST');
      return sendProblem(req, res, problem(405, `${name} is a command: use POST.`));
    }
    const needsId =
      endpoint.kind === 'get' || ((endpoint.kind === 'query' || endpoint.kind === 'command') && endpoint.withId === true);
    if (needsId && !id) return sendProblem(req, res, problem(404, `${name} needs an id: ${name}/{id}.`));
    if (!needsId && id) return sendProblem(req, res, problem(404, `${name} takes no id.`));
    const caller = res.locals.caller as Caller;
    const params = rawQuery(req);

    switch (endpoint.kind) {
      case 'list': {
        const paging = parsePaging(params);
        const filters = parseFilters(params, Object.keys(endpoint.filters));
        const where = listCondition(filters, endpoint.filters);
        const result = await endpoint.call(caller)({
          ...(where ? { where } : {}),
          orderBy: endpoint.sort ?? [],
          offset: (paging.page - 1) * paging.itemsPerPage,
          limit: paging.itemsPerPage,
          count: true,
        });
        const total = result.count ?? 0;
        return res.json({
          items: result.items.map(endpoint.map),
          page: paging.page,
          itemsPerPage: paging.itemsPerPage,
          totalItems: total,
          totalPages: Math.ceil(total / paging.itemsPerPage),
        });
      }
      case 'get': {
        if ([...params.keys()].length) parseFilters(params, []);
        return res.json(endpoint.map(await endpoint.call(caller)({ id: id as string })));
      }
      case 'query': {
        if ([...params.keys()].length) parseFilters(params, []);
        const out = await endpoint.call(caller)(endpoint.mapInput(id));
        return res.json(endpoint.map ? endpoint.map(out) : out);
      }
      case 'command': {
        const body: unknown = req.body;
        if (!body || typeof body !== 'object' || Array.isArray(body)) {
          return sendProblem(req, res, problem(400, 'The body must be a JSON object.'));
        }
        return runCommand(res, caller, endpoint, body, id);
      }
      default:
        return sendProblem(req, res, problem(404, `There is no endpoint ${name}.`));
    }
  };

  app.all('/:endpoint', (req, res) => handle(req, res, req.params.endpoint as string, undefined));
  app.all('/:endpoint/:id', (req, res) => handle(req, res, req.params.endpoint as string, req.params.id));
  app.use((req, res) => sendProblem(req, res, problem(404, 'No such endpoint.')));
  app.use((err: unknown, req: Request, res: Response, _next: NextFunction) => renderV3Error(err, req, res, opts.log));
  return app;
}
