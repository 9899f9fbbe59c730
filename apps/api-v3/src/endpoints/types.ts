import type { createCaller, ListQuery, SortKey } from '@bo/domain';
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

/** A paged list of one entity: `name=` and `name[]=` filters on declared domain paths. */
export interface ListEndpoint<Row> {
  kind: 'list';
  call: (c: Caller) => (q: ListQuery) => Promise<{ items: Row[]; count: number | null }>;
  /** query parameter → domain path */
  filters: Record<string, string>;
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

/** A page of a paged query, as the domain answers it (webhooks, deliveries). */
export interface Paged<Row> {
  items: Row[];
  page: number;
  itemsPerPage: number;
  totalItems: number;
  totalPages: number;
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

/** A query (GET) answering one thing; `/{id}` when `withId`. */
export interface QueryEndpoint<In, Out> {
  kind: 'query';
  call: (c: Caller) => (input: In) => Promise<Out>;
  withId: boolean;
  mapInput: (id: string | undefined) => In;
  map?: (out: Out) => unknown;
  doc: EndpointDoc;
}

/** A paged query the domain pages itself: `page`, `itemsPerPage` and `name=`/`name[]=` filters. */
export interface PagedQueryEndpoint<Row> {
  kind: 'pagedQuery';
  call: (c: Caller) => (input: { page: number; itemsPerPage: number; filters: Record<string, string[]> }) => Promise<Paged<Row>>;
  filters: string[];
  map?: (row: Row) => unknown;
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

export function pagedQueryEndpoint<Row>(e: Omit<PagedQueryEndpoint<Row>, 'kind'>): PagedQueryEndpoint<Row> {
  return { kind: 'pagedQuery', ...e };
}

// biome-ignore lint/suspicious/noExplicitAny: the table holds endpoints of any row and input type
type Anything = any;

/** Every typed endpoint kind. */
export type TypedEndpoint =
  | ListEndpoint<Anything>
  | GetEndpoint<Anything>
  | CommandEndpoint<Anything, Anything, Anything>
  | QueryEndpoint<Anything, Anything>
  | PagedQueryEndpoint<Anything>;
