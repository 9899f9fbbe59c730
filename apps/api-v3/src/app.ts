import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import {
  type Comparison,
  type Condition,
  createCaller,
  type DomainContext,
  environmentFromHost,
  NotFoundError,
  UnauthenticatedError,
} from '@bo/domain';
import { type Endpoint, endpoints as defaultEndpoints } from './endpoints/index.js';
import { parseFilters, parsePaging } from './paging.js';
import { type ErrorLogger, problem, renderV3Error, sendProblem } from './problem.js';
import { createRequire } from 'node:module';
import path from 'node:path';
import { apiReference } from '@scalar/express-api-reference';
import { buildOpenApiDocument } from './openapi.js';

export interface V3Options {
  context: (req: Request) => DomainContext;
  log: ErrorLogger;
  /** counts a request of a token; answers whether it may go on */
  rateLimit?: (key: string) => Promise<{ allowed: boolean; limit: number; remaining: number; retryAfterSeconds: number }>;
  /** endpoints beyond the built-in table (added by modules that own them) */
  endpoints?: Record<string, Endpoint>;
}

type Caller = ReturnType<typeof createCaller>;
type Procedure = (input: unknown) => Promise<unknown>;

function procedureAt(caller: Caller, path: string): Procedure {
  let node: unknown = caller;
  for (const seg of path.split('.')) node = (node as Record<string, unknown>)[seg];
  return node as Procedure;
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

function filterCondition(filters: Map<string, string[]>, paths: Record<string, string>): Condition | undefined {
  const and: Comparison[] = [];
  for (const [name, values] of filters) {
    const path = paths[name] ?? name;
    and.push(values.length === 1 ? { path, op: 'eq', value: values[0] ?? '' } : { path, op: 'in', value: values });
  }
  return and.length ? { and } : undefined;
}

// the package exports only its modules; its browser bundle sits beside them in dist/
const SCALAR_BUNDLE = path.join(
  path.dirname(createRequire(import.meta.url).resolve('@scalar/api-reference')),
  'browser/standalone.js',
);

/** The v3 RPC adapter: `/{entity}.{action}[/{id}]`, strict input, problem details. */
export function createV3Router(opts: V3Options): Router {
  const table: Record<string, Endpoint> = { ...defaultEndpoints, ...opts.endpoints };
  const app = express.Router();

  // the reference is public: mounted before authentication
  let document: Record<string, unknown> | null = null;
  app.get('/docs.json', (_req, res) => {
    document ??= buildOpenApiDocument(table);
    res.json(document);
  });
  // the viewer's script is served from here, not from a CDN, so the page works with no internet
  app.get('/docs/standalone.js', (_req, res) => {
    // pnpm keeps packages under node_modules/.pnpm: a dot-folder that sendFile refuses by default
    res.type('application/javascript').sendFile(SCALAR_BUNDLE, { maxAge: '1d', dotfiles: 'allow' });
  });
  app.get('/docs', (req, res, next) => {
    const render = apiReference({
      url: `${req.baseUrl}/docs.json`,
      pageTitle: 'Business operations API v3',
      cdn: `${req.baseUrl}/docs/standalone.js`,
      bundle: false,
    });
    render(req as unknown as Parameters<typeof render>[0], res, next);
  });

  app.use(async (req, res, next) => {
    try {
      const environment = environmentFromHost(req.headers.host);
      if (!environment) throw new NotFoundError('environment');
      const ctx = opts.context(req);
      const principal = await createCaller({ ...ctx, principal: null }).auth.authenticate({ environment, ...bearer(req) });
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
    const endpoint = table[name];
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
      endpoint.kind === 'get' ||
      endpoint.kind === 'resourceGet' ||
      ((endpoint.kind === 'query' || endpoint.kind === 'command') && endpoint.withId);
    if (needsId && !id) return sendProblem(req, res, problem(404, `${name} needs an id: ${name}/{id}.`));
    if (!needsId && id) return sendProblem(req, res, problem(404, `${name} takes no id.`));
    const caller = res.locals.caller as Caller;
    const params = rawQuery(req);

    switch (endpoint.kind) {
      case 'list': {
        const paging = parsePaging(params);
        const filters = parseFilters(params, Object.keys(endpoint.filters));
        const where = filterCondition(filters, endpoint.filters);
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
      case 'resourceList': {
        const paging = parsePaging(params);
        const filters = parseFilters(params, Object.keys(endpoint.filters));
        const result = (await procedureAt(
          caller,
          `${endpoint.resource.replace('/', '.')}.list`,
        )({
          query: {
            where: filterCondition(filters, endpoint.filters),
            orderBy: endpoint.sort ?? [],
            offset: (paging.page - 1) * paging.itemsPerPage,
            limit: paging.itemsPerPage,
            count: true,
          },
          view: 'v3',
        })) as { items: unknown[]; count: number };
        return res.json({
          items: result.items,
          page: paging.page,
          itemsPerPage: paging.itemsPerPage,
          totalItems: result.count,
          totalPages: Math.ceil(result.count / paging.itemsPerPage),
        });
      }
      case 'resourceGet': {
        if ([...params.keys()].length) parseFilters(params, []);
        const data = await procedureAt(caller, `${endpoint.resource.replace('/', '.')}.get`)({ id, view: 'v3' });
        return res.json(data);
      }
      case 'query': {
        if ([...params.keys()].length) parseFilters(params, []);
        return res.json(await procedureAt(caller, endpoint.procedure)(endpoint.withId ? { id } : {}));
      }
      case 'pagedQuery': {
        const paging = parsePaging(params);
        const filters = Object.fromEntries(parseFilters(params, endpoint.filters));
        return res.json(await procedureAt(caller, endpoint.procedure)({ ...paging, filters }));
      }
      case 'command': {
        const body: unknown = req.body;
        if (!body || typeof body !== 'object' || Array.isArray(body)) {
          return sendProblem(req, res, problem(400, 'The body must be a JSON object.'));
        }
        if ('call' in endpoint) {
          const data = body as Record<string, unknown>;
          const input = endpoint.mapInput ? endpoint.mapInput(data, id) : endpoint.withId ? { id, data } : { data };
          const result: unknown = await endpoint.call(caller)(input);
          return res.status(endpoint.status).json(endpoint.map ? await endpoint.map(result, caller) : result);
        }
        const input = endpoint.withId ? { ...(body as object), id } : body;
        const result = await procedureAt(caller, endpoint.procedure)(input);
        return res.status(endpoint.status).json(result);
      }
    }
  };

  app.all('/:endpoint', (req, res) => handle(req, res, req.params.endpoint as string, undefined));
  app.all('/:endpoint/:id', (req, res) => handle(req, res, req.params.endpoint as string, req.params.id));
  app.use((req, res) => sendProblem(req, res, problem(404, 'No such endpoint.')));
  app.use((err: unknown, req: Request, res: Response, _next: NextFunction) => renderV3Error(err, req, res, opts.log));
  return app;
}
