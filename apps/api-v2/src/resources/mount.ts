import type { Request, Response, Router } from 'express';

/** What the mount functions register routes on: a router, or the routers by module (app.ts). */
export type RouteTable = Pick<Router, 'get' | 'post' | 'put' | 'delete'>;
import { BadRequestError, type createCaller, noneMatchHits, recordTag } from '@bo/domain';
import { JsonText, jsonItemsInTurns, takesTurns } from '@bo/runtime';
import { sendData, sendErrors } from '../envelope.js';
import { parseListParams, parseSelect } from '../query-language.js';
import { applySelect } from '../select.js';
import type { AnyV2Operation } from './v2-operation.js';
import { withReadAliases } from './v2-read-aliases.js';
import {
  type AnyV2Resource,
  inV2Terms,
  inV2WriteTerms,
  type V2Input,
  type V2RowOperation,
  withErrorCodes,
} from './v2-resource.js';

type Caller = ReturnType<typeof createCaller>;

function rawQuery(req: Request): string {
  const i = req.originalUrl.indexOf('?');
  return i === -1 ? '' : req.originalUrl.slice(i + 1);
}

function pathsOf(where: unknown, out: string[] = []): string[] {
  if (!where || typeof where !== 'object') return out;
  const c = where as { path?: string; and?: unknown[]; or?: unknown[] };
  if (c.path) out.push(c.path);
  for (const x of c.and ?? []) pathsOf(x, out);
  for (const x of c.or ?? []) pathsOf(x, out);
  return out;
}

/**
 * Mounts one v2 resource: list, get, and the writes its procedures offer. The
 * v2 query language and body are translated into domain terms here, and the
 * domain's answers and errors back into v2 terms.
 */
export function mountV2Resource(
  app: RouteTable,
  resource: AnyV2Resource,
  bodyObject: (req: Request) => Record<string, unknown>,
): void {
  const base = `/${resource.path}`;
  const { names } = resource;
  const call = (res: Response) => resource.procedures(res.locals.caller as Caller);
  /** the v2 read, without the fields shown only when `select` names them */
  const readFor = (row: unknown, select: string[] | undefined): Record<string, unknown> => {
    const out = withReadAliases(resource.read(row));
    for (const key of resource.selectOnly ?? []) {
      if (!select?.some((s) => s.trim() === key || s.trim().startsWith(`${key}.`))) delete out[key];
    }
    return out;
  };
  const translated = async <T>(run: () => Promise<T>, paths: string[] = []): Promise<T> => {
    try {
      return await run();
    } catch (err) {
      throw inV2Terms(err, names, paths);
    }
  };

  // the page's rows made as v2 JSON by PostgreSQL, where the read is declared as a shape (v2-shape.ts)
  const listShape = resource.shape?.without(resource.selectOnly ?? []);

  app.get(base, async (req, res) => {
    const p = parseListParams(rawQuery(req));
    const paths = [...pathsOf(p.where), ...p.orderBy.map((k) => k.path)];
    const query = {
      ...(p.where ? { where: names.condition(p.where) } : {}),
      orderBy: names.sort(p.orderBy),
      offset: p.offset,
      limit: p.limit,
      count: p.metadata.has('count'),
    };
    const procedures = call(res);
    // `select` picks keys from the read made in the process; a backlogged environment on a shared
    // process reads its page in turns, which a page made by PostgreSQL cannot take (takesTurns)
    const listAs = listShape && !p.select && !takesTurns(res) ? procedures.listAs : undefined;
    let items: JsonText[];
    let count: number | null;
    if (listAs && listShape) {
      const page = await translated(() => listAs({ ...query, projection: listShape }), paths);
      items = page.items.map((text) => new JsonText(text));
      count = page.count;
    } else {
      const page = await translated(() => procedures.list(query), paths);
      // in turns: an environment with a backlog lets others run between slices of its page
      items = await jsonItemsInTurns(res, page.items, (row) =>
        applySelect(readFor(row, p.select), p.select, resource.alwaysSelected),
      );
      count = page.count;
    }
    let metadata: Record<string, number> | undefined;
    if (p.metadata.size) {
      metadata = {};
      if (p.metadata.has('count')) metadata.count = count ?? 0;
      if (p.metadata.has('limit')) metadata.limit = p.limit;
      if (p.metadata.has('offset')) metadata.offset = p.offset;
    }
    sendData(res, items, metadata);
  });

  app.get(`${base}/:id`, async (req, res) => {
    const select = new URLSearchParams(rawQuery(req)).get('select');
    const id = req.params.id as string;
    const procedures = call(res);
    // the record's version as its ETag: If-None-Match with it answers 304, If-Match on a write checks it
    const tagged = (tag: string | null | undefined): boolean => {
      if (!tag) return false;
      res.setHeader('ETag', tag);
      if (!noneMatchHits(req.get('if-none-match'), tag)) return false;
      res.status(304).end();
      return true;
    };
    const getAs = resource.shape && !select ? procedures.getAs : undefined;
    if (getAs && listShape) {
      const row = await translated(() => getAs({ id, projection: listShape }));
      if (!tagged(row.tag)) sendData(res, new JsonText(row.json));
      return;
    }
    const row = await translated(() => procedures.get({ id }));
    if (tagged(recordTag(row))) return;
    const selected = select ? parseSelect(select) : undefined;
    sendData(res, applySelect(readFor(row, selected), selected, resource.alwaysSelected));
  });

  // extra row operations the resource declares (duplicate, planningBudget, …)
  for (const action of resource.actions ?? []) {
    const run = async (req: Request, res: Response) => {
      const raw =
        action.method === 'GET'
          ? Object.fromEntries(new URLSearchParams(rawQuery(req)))
          : req.body === undefined
            ? {}
            : bodyObject(req);
      const id = req.params.id as string;
      const data = (action.input ? action.input(raw) : names.input(raw)) as never;
      const out = await translated(() => action.call(res.locals.caller as Caller)({ id, data }));
      sendData(res, action.read ? action.read(out, id) : names.output(out));
    };
    if (action.method === 'GET') app.get(`${base}/:id/${action.name}`, run);
    else app.post(`${base}/:id/${action.name}`, run);
  }

  /** a write body in domain terms, and the errors of the write in v2 terms */
  const written = async <T>(
    req: Request,
    run: (data: never) => Promise<T>,
    body: Record<string, unknown> = bodyObject(req),
  ): Promise<T> => {
    const input: V2Input = resource.input ? resource.input(body) : { data: names.input(body) };
    try {
      return await run(input.data as never);
    } catch (err) {
      const v2 = inV2WriteTerms(err, names, input);
      throw resource.errorCodes ? withErrorCodes(v2) : v2;
    }
  };

  const methods = resource.methods ?? {};
  // a resource the contract calls read-only: writes answer 405 and say so
  if (resource.readOnly) {
    const refuse = (_req: Request, res: Response) => {
      res.setHeader('Allow', 'GET');
      sendErrors(res, 405, [`${resource.path} is read-only: it can be read (GET), not written`]);
    };
    app.post(base, refuse);
    app.put(base, refuse);
    app.put(`${base}/:id`, refuse);
    app.delete(`${base}/:id`, refuse);
    app.post(`${base}/:id`, refuse);
  }
  app.post(base, async (req, res, next) => {
    const create = call(res).create;
    if (!create || methods.create === false) return next();
    sendData(res, await written(req, (data) => create({ data })));
  });
  const updateById = async (req: Request, res: Response, next: () => void) => {
    const update = call(res).update;
    if (!update || methods.update === false) return next();
    sendData(res, await written(req, (data) => update({ id: req.params.id as string, data })));
  };
  app.put(`${base}/:id`, updateById);
  // the reference's own spellings of an update, served beside PUT /{id}
  if (resource.referencePaths?.updateByPost) app.post(`${base}/:id`, updateById);
  if (resource.referencePaths?.updateOnCollection) {
    app.put(base, async (req, res, next) => {
      const update = call(res).update;
      if (!update || methods.update === false) return next();
      const { id, ...body } = bodyObject(req);
      if (typeof id !== 'string' || id === '') {
        throw new BadRequestError('id: the id of the record to change is required in the body', 'id');
      }
      sendData(res, await written(req, (data) => update({ id, data }), body));
    });
  }
  app.delete(`${base}/:id`, async (req, res, next) => {
    const remove = call(res).delete;
    if (!remove || methods.delete === false) return next();
    sendData(res, await translated(() => remove({ id: req.params.id as string })));
  });
}

/** Mounts one v2 operation: the body (or query) in v2 names in, the answer in v2 names out. */
export function mountV2Operation(
  app: RouteTable,
  op: AnyV2Operation,
  bodyObject: (req: Request) => Record<string, unknown>,
): void {
  const handler = async (req: Request, res: Response) => {
    const raw =
      op.method === 'GET'
        ? Object.fromEntries(new URLSearchParams(rawQuery(req)))
        : op.arrayBody && Array.isArray(req.body)
          ? { [op.arrayBody]: req.body }
          : bodyObject(req);
    const input = op.names.input(raw) as never;
    let answer: unknown;
    try {
      answer = await op.call(res.locals.caller as Caller)(input);
    } catch (err) {
      throw inV2Terms(err, op.names);
    }
    sendData(res, op.show ? op.show(answer) : op.names.output(answer), op.metadata?.(answer, raw as Record<string, string>));
  };
  if (op.method === 'GET') app.get(`/${op.path}`, handler);
  else if (op.method === 'PUT') app.put(`/${op.path}`, handler);
  else app.post(`/${op.path}`, handler);
}

/** Mounts an operation of its own path on one row: `{path}/{id}`, the body (or query) in v2 names. */
export function mountV2RowOperation(
  app: RouteTable,
  operation: V2RowOperation,
  bodyObject: (req: Request) => Record<string, unknown>,
): void {
  const route = `/${operation.path}/:id`;
  const run = async (req: Request, res: Response) => {
    const body =
      operation.method === 'GET' || operation.method === 'DELETE'
        ? Object.fromEntries(new URLSearchParams(rawQuery(req)))
        : req.body === undefined
          ? {}
          : bodyObject(req);
    const caller = res.locals.caller as Caller;
    try {
      const data = operation.names.input(body) as never;
      const result = await operation.call(caller)({ id: req.params.id as string, data });
      sendData(res, operation.read ? await operation.read(result as never, caller) : result);
    } catch (err) {
      throw inV2Terms(err, operation.names);
    }
  };
  if (operation.method === 'GET') app.get(route, run);
  else if (operation.method === 'PUT') app.put(route, run);
  else if (operation.method === 'DELETE') app.delete(route, run);
  else app.post(route, run);
}
