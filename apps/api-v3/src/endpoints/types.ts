import type { createCaller, ListQuery, Operator, SortKey } from '@bo/domain';
import type { z } from 'zod';

export type Caller = ReturnType<typeof createCaller>;

/** A zod schema under its name in the OpenAPI document (`Crm.Organization`). */
export interface NamedSchema {
  name: string;
  schema: z.ZodType;
}

/** What the OpenAPI document says of an endpoint beyond its kind. */
export interface EndpointDoc {
  summary: string;
  /** a named schema, or the name of one the legacy table registers */
  request?: NamedSchema | string;
  response?: NamedSchema | string;
  /** error statuses the contract lists for the endpoint */
  errors: number[];
}

/**
 * What a query parameter of a list means. A domain path: `name=a` is `eq`, `name[]=a&name[]=b`
 * (or the name repeated) is `in`. Or a filter that takes exactly one value (a 400 otherwise),
 * compared to `path` by `op` (`eq` when absent); `date` takes a date (`YYYY-MM-DD`, a time
 * part dropped): `date[ge]` → `{ path: 'startDate', op: 'ge', value: 'date' }`.
 */
export type ListFilter = string | { path: string; op?: Exclude<Operator, 'in' | 'nin'>; value: 'one' | 'date' };

/**
 * A paged list: the v3 query (`page`, `itemsPerPage` and the filters) becomes the domain's list
 * query (where, orderBy, offset, limit, count), and the domain's page (items, count) the v3 page
 * (items, page, itemsPerPage, totalItems, totalPages). The only kind of paged query.
 */
export interface ListEndpoint<Row> {
  kind: 'list';
  call: (c: Caller) => (q: ListQuery) => Promise<{ items: Row[]; count: number | null }>;
  /** query parameter → its meaning over the domain's paths */
  filters: Record<string, ListFilter>;
  sort?: SortKey[];
  map: (row: Row) => unknown;
  doc: EndpointDoc;
}

/** One entity by id. */
export interface GetEndpoint<Row> {
  kind: 'get';
  call: (c: Caller) => (i: { id: string }) => Promise<Row>;
  map: (row: Row) => unknown;
  doc: EndpointDoc;
}

export function listEndpoint<Row>(e: Omit<ListEndpoint<Row>, 'kind'>): ListEndpoint<Row> {
  return { kind: 'list', ...e };
}

export function getEndpoint<Row>(e: Omit<GetEndpoint<Row>, 'kind'>): GetEndpoint<Row> {
  return { kind: 'get', ...e };
}

/**
 * A command (POST, JSON body). The body is validated against `doc.request` (the v3
 * shape, strict), `mapInput` turns it into the domain input (with the `/{id}` when
 * `withId`), and `paths` renders the domain paths of violations in v3 names.
 */
export interface CommandEndpoint<Body, In, Out> {
  kind: 'command';
  call: (c: Caller) => (input: In) => Promise<Out>;
  mapInput?: (body: Body, id: string | undefined) => In;
  /** the v3 answer; it may read more through the caller */
  map?: (out: Out, caller: Caller) => unknown;
  /** a domain path of a violation → the v3 property path, where the names differ */
  paths?: (domainPath: string) => string;
  /** success status: 201 for creating commands, 200 otherwise */
  status: 200 | 201;
  /** the command addresses /{id} */
  withId?: boolean;
  doc: EndpointDoc & { request: NamedSchema };
}

/**
 * A query (GET) answering one thing; `/{id}` when `withId`. `params`: the query parameters it
 * takes (any other is refused), handed to `mapInput` as given (`name=a&name=b` or `name[]=…`).
 */
export interface QueryEndpoint<In, Out> {
  kind: 'query';
  call: (c: Caller) => (input: In) => Promise<Out>;
  withId: boolean;
  params?: { name: string; description: string }[];
  mapInput: (id: string | undefined, params: Map<string, string[]>) => In;
  map?: (out: Out) => unknown;
  doc: EndpointDoc;
}

export function commandEndpoint<Body, In = Body, Out = unknown>(
  e: Omit<CommandEndpoint<Body, In, Out>, 'kind'>,
): CommandEndpoint<Body, In, Out> {
  return { kind: 'command', ...e };
}

export function queryEndpoint<In, Out>(e: Omit<QueryEndpoint<In, Out>, 'kind'>): QueryEndpoint<In, Out> {
  return { kind: 'query', ...e };
}

// biome-ignore lint/suspicious/noExplicitAny: the table holds endpoints of any row and input type
type Anything = any;

/** Every typed endpoint kind. */
export type TypedEndpoint =
  | ListEndpoint<Anything>
  | GetEndpoint<Anything>
  | CommandEndpoint<Anything, Anything, Anything>
  | QueryEndpoint<Anything, Anything>;
