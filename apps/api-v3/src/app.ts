import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import {
  appRouter,
  createCaller,
  type DeclaredRight,
  type DomainError,
  declaredRightOf,
  noneMatchHits,
  preconditionOf,
  recordTag,
  toDomainError,
  ValidationError,
  violationsFromZod,
} from '@bo/domain';
import { procedureNamedBy } from '@bo/domain/trpc';
import {
  admissionOf,
  type Guard,
  type IdempotencyMiddleware,
  idempotency,
  jsonItemsInTurns,
  TransportSecurityError,
} from '@bo/runtime';
import { type Endpoint, endpoints as defaultEndpoints } from './endpoints/index.js';
import type { CommandEndpoint } from './endpoints/types.js';
import { listCondition, parseFilters, parsePaging } from './paging.js';
import { type ErrorLogger, problem, renderV3Error, sendProblem } from './problem.js';
import { DEFAULT_MAX_JSON_DEPTH, mountApiDocs, refuseDeepJson } from '@bo/http';
import { buildOpenApiDocument } from './openapi.js';

export interface V3Options {
  /** every door's guard: transport, environment, credentials, rate limit, maintenance, declared right */
  guard: Guard;
  log: ErrorLogger;
  /** endpoints beyond the built-in table (added by modules that own them) */
  endpoints?: Record<string, Endpoint>;
  /** how deep a JSON body may nest (default 32) */
  maxJsonDepth?: number;
  /** `Idempotency-Key` on writes (the process's, with its own store); none: one on the request's pool */
  idempotency?: IdempotencyMiddleware;
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
  // the procedure's declared right was checked by the guard, before the body was read
  const parsed = endpoint.doc.request.schema.safeParse(body);
  if (!parsed.success) throw new ValidationError(violationsFromZod(parsed.error));
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

/** The v3 RPC adapter: `/{entity}.{action}[/{id}]`, strict input, problem details. */
export function createV3Router(opts: V3Options): Router {
  const table = new Map<string, Endpoint>(Object.entries(defaultEndpoints));
  const app = express.Router();

  const { guard } = opts;

  /** the guard's refusals as problem details */
  const render = (err: DomainError, req: Request, res: Response) => {
    if (err instanceof TransportSecurityError) return sendProblem(req, res, problem(403, err.message));
    if (err.kind === 'unauthenticated') {
      res.setHeader('WWW-Authenticate', 'Bearer');
      return sendProblem(req, res, problem(401, 'Missing or invalid credentials.'));
    }
    if (err.kind === 'not_found') return sendProblem(req, res, problem(404, 'Not found.'));
    renderV3Error(err, req, res, opts.log);
  };

  // the right each endpoint's procedure declares, read from the procedure without calling it
  const rights = new Map<string, DeclaredRight | undefined>();
  const rightOf = (name: string, endpoint: Endpoint) => {
    if (!rights.has(name)) {
      const call = (endpoint as { call?: (c: Caller) => unknown }).call;
      rights.set(name, call ? declaredRightOf(procedureNamedBy(appRouter, call)) : undefined);
    }
    return rights.get(name);
  };
  /** the right of the endpoint the request line names, when the method fits it (otherwise a 405 says so) */
  const endpointRight = (req: Request): DeclaredRight | undefined => {
    const name = /^\/([^/]+)/.exec(req.path)?.[1];
    const endpoint = name === undefined ? undefined : table.get(name);
    if (!name || !endpoint) return undefined;
    const method = req.method === 'HEAD' ? 'GET' : req.method;
    if ((endpoint.kind === 'command' ? 'POST' : 'GET') !== method) return undefined;
    return rightOf(name, endpoint);
  };

  // v3 is TLS-only, like v2: refused before anything else runs, the public reference included
  app.use(guard.transportOnly(render));

  // the reference is public: mounted before authentication
  mountApiDocs(app, 'Business operations API v3', () => buildOpenApiDocument(Object.fromEntries(table)));

  // the one guard; the endpoint's declared right is checked here, before the body is read
  app.use(guard.door({ credentials: 'token', right: endpointRight, render }));
  app.use((req, res, next) => {
    const { context } = admissionOf(res);
    // If-Match on a command: the write compares it with the record it locks (412 when it changed)
    const precondition = req.method === 'GET' ? undefined : preconditionOf(req.get('if-match'));
    res.locals.caller = createCaller(precondition ? { ...context, precondition } : context);
    next();
  });

  app.use((req, res, next) => {
    if (req.method === 'POST' && !req.is('application/json')) {
      return sendProblem(req, res, problem(415, 'Content-Type must be application/json.'));
    }
    next();
  });
  app.use(express.json({ limit: '1mb', strict: false, verify: refuseDeepJson(opts.maxJsonDepth ?? DEFAULT_MAX_JSON_DEPTH) }));
  // safe retries: a command with an Idempotency-Key runs once
  app.use((opts.idempotency ?? idempotency({ log: opts.log }))((err, req, res) => renderV3Error(err, req, res, opts.log)));

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
          // in turns: an environment with a backlog lets others run between slices of its page
          items: await jsonItemsInTurns(res, result.items, endpoint.map),
          page: paging.page,
          itemsPerPage: paging.itemsPerPage,
          totalItems: total,
          totalPages: Math.ceil(total / paging.itemsPerPage),
        });
      }
      case 'get': {
        if ([...params.keys()].length) parseFilters(params, []);
        const row = await endpoint.call(caller)({ id: id as string });
        const tag = recordTag(row);
        if (tag) {
          res.setHeader('ETag', tag);
          if (noneMatchHits(req.get('if-none-match'), tag)) return res.status(304).end();
        }
        return res.json(endpoint.map(row));
      }
      case 'query': {
        const names = (endpoint.params ?? []).map((p) => p.name);
        const given = parseFilters(params, names);
        // parseFilters passes paging by; a query that pages its own way takes it as a parameter
        for (const paging of ['page', 'itemsPerPage']) {
          if (params.has(paging) && names.includes(paging)) given.set(paging, params.getAll(paging));
        }
        const out = await endpoint.call(caller)(endpoint.mapInput(id, given));
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
