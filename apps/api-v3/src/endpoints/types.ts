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

/**
 * A command: POST with a JSON body (and `/{id}` when `withId`), calling a typed
 * procedure. `mapInput` turns the body (and id) into the procedure's input (default:
 * `{ data: body }`, plus `id` when `withId`); `map` shapes the answer (it may read
 * more through the caller, e.g. the entity a command changed).
 */
export interface CommandEndpoint<In, Out> {
  kind: 'command';
  call: (c: Caller) => (input: In) => Promise<Out>;
  mapInput?: (body: Record<string, unknown>, id: string | undefined) => In;
  map?: (result: Out, c: Caller) => unknown;
  /** success status: 201 for creating commands, 200 otherwise */
  status: 200 | 201;
  withId?: boolean;
  doc: EndpointDoc;
}

// biome-ignore lint/suspicious/noExplicitAny: a table holds commands of any input and answer
export type AnyCommandEndpoint = CommandEndpoint<any, any>;

export function commandEndpoint<In, Out>(e: Omit<CommandEndpoint<In, Out>, 'kind'>): CommandEndpoint<In, Out> {
  return { kind: 'command', ...e };
}
