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
