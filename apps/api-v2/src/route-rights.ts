import type { Request } from 'express';
import { appRouter, type createCaller, type DeclaredRight, declaredRightOf } from '@bo/domain';
import { procedureNamedBy } from '@bo/domain/trpc';
import type { AnyV2Operation } from './resources/v2-operation.js';
import type { AnyV2Resource, V2RowOperation } from './resources/v2-resource.js';

type Caller = ReturnType<typeof createCaller>;
type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** A route's declared right, and the place of the route among the mounted ones (the first match wins). */
interface Entry {
  order: number;
  /** undefined: the route's accessor does more than name a procedure, which then checks its right itself */
  right: DeclaredRight | undefined;
  /** the route as mounted (`/crm/organization/:id`), for the metrics */
  template: string;
}

const ID = ':id';

/**
 * The right each v2 route's procedure declares, read from the procedures' declarations (never by
 * calling them), so that the guard checks it before the body is read. Routes are the ones
 * mountV2Resource, mountV2Operation and mountV2RowOperation mount, in their order; a request is
 * looked up by its method and path (`/crm/organization`, `/crm/organization/:id`,
 * `/projects/service/:id/duplicate`) in a map, whatever the number of routes.
 */
export function v2RouteRights(
  resources: readonly AnyV2Resource[],
  operations: readonly AnyV2Operation[],
  rowOperations: readonly V2RowOperation[],
): (req: Request) => DeclaredRight | undefined {
  const match = routeMatcher(declaredRoutes(resources, operations, rowOperations));
  return (req) => {
    const entry = match(req.method, req.path);
    // the metrics label the request with the same route when it closes: matched once
    matchedRoutes.set(req, entry);
    return entry?.right;
  };
}

/** the route each request was matched to by its right's lookup (the guard's), for its metrics */
const matchedRoutes = new WeakMap<Request, Entry | undefined>();

/**
 * The route template of a v2 request (`path`: below /api/v2), as the routes are declared: for the
 * metrics and spans, which must never be labelled with raw URLs (ids). undefined: no declared route.
 * A request the guard looked up is not matched again.
 */
export function v2RouteTemplates(
  resources: readonly AnyV2Resource[],
  operations: readonly AnyV2Operation[],
  rowOperations: readonly V2RowOperation[],
): (req: Request, path: string) => string | undefined {
  let match: ((method: string, path: string) => Entry | undefined) | null = null;
  return (req, path) => {
    if (matchedRoutes.has(req)) return matchedRoutes.get(req)?.template;
    // built on first use: the declarations are read once, like the rights
    match ??= routeMatcher(declaredRoutes(resources, operations, rowOperations));
    return match(req.method, path)?.template;
  };
}

function declaredRoutes(
  resources: readonly AnyV2Resource[],
  operations: readonly AnyV2Operation[],
  rowOperations: readonly V2RowOperation[],
): Map<string, Entry> {
  const routes = new Map<string, Entry>();
  let order = 0;
  const add = (method: Method, path: string, select: (c: Caller) => unknown) => {
    order += 1;
    let absent = false;
    const procedure = procedureNamedBy(appRouter, (c) => {
      const selected = select(c);
      absent = selected === undefined;
      return selected;
    });
    // a resource without the procedure passes the request on to the next route
    if (absent) return;
    const key = `${method} ${path.toLowerCase()}`;
    // a route mounted earlier on the same method and path answers first
    if (!routes.has(key)) routes.set(key, { order, right: declaredRightOf(procedure), template: path });
  };

  for (const r of resources) {
    const base = `/${r.path}`;
    const methods = r.methods ?? {};
    add('GET', base, (c) => r.procedures(c).list);
    add('GET', `${base}/${ID}`, (c) => r.procedures(c).get);
    for (const action of r.actions ?? [])
      add(action.method === 'GET' ? 'GET' : 'POST', `${base}/${ID}/${action.name}`, action.call);
    // a read-only resource answers 405 to every write, whatever the caller's rights
    if (r.readOnly) continue;
    if (methods.create !== false) add('POST', base, (c) => r.procedures(c).create);
    if (methods.update !== false) {
      add('PUT', `${base}/${ID}`, (c) => r.procedures(c).update);
      if (r.referencePaths?.updateByPost) add('POST', `${base}/${ID}`, (c) => r.procedures(c).update);
      if (r.referencePaths?.updateOnCollection) add('PUT', base, (c) => r.procedures(c).update);
    }
    if (methods.delete !== false) add('DELETE', `${base}/${ID}`, (c) => r.procedures(c).delete);
  }
  for (const op of operations) add(op.method, `/${op.path}`, op.call);
  for (const op of rowOperations) add(op.method, `/${op.path}/${ID}`, op.call);
  return routes;
}

/** The route a request (method, path below /api/v2) reaches, by the map of routes: the first mounted wins. */
function routeMatcher(routes: Map<string, Entry>): (method: string, path: string) => Entry | undefined {
  return (requestMethod, requestPath) => {
    const method = requestMethod === 'HEAD' ? 'GET' : requestMethod;
    const path = requestPath.replace(/\/$/, '').toLowerCase();
    const segments = path.split('/');
    const candidates = [
      routes.get(`${method} ${path}`),
      segments.length > 2 ? routes.get(`${method} ${[...segments.slice(0, -1), ID].join('/')}`) : undefined,
      segments.length > 3 ? routes.get(`${method} ${[...segments.slice(0, -2), ID, segments.at(-1)].join('/')}`) : undefined,
    ];
    let first: Entry | undefined;
    for (const c of candidates) if (c && (!first || c.order < first.order)) first = c;
    return first;
  };
}
