import { BadRequestError, type createCaller, ForbiddenError, type ListQuery, toDomainError, ValidationError } from '@bo/domain';
import type { V2Names } from './v2-names.js';

type Caller = ReturnType<typeof createCaller>;

/** The typed procedures of one entity, as the domain router declares them. */
export interface EntityProcedures<Row> {
  list(input: ListQuery): Promise<{ items: Row[]; count: number | null }>;
  get(input: { id: string }): Promise<Row>;
  create?: (input: { data: never }) => Promise<{ id: string }>;
  update?: (input: { id: string; data: never }) => Promise<{ id: string }>;
  delete?: (input: { id: string }) => Promise<{ id: string }>;
}

/** One v2 resource: its path, the entity procedures it calls, and its wire names and shape. */
export interface V2Resource<Row> {
  /** below /api/v2, e.g. `crm/organization` */
  path: string;
  procedures(caller: Caller): EntityProcedures<Row>;
  names: V2Names;
  /** the v2 read shape of a row (reference: Get…) */
  read(row: Row): Record<string, unknown>;
  /** fields `select` always keeps beside `id` */
  alwaysSelected?: string[];
  /** which of create, update and delete v2 offers, when not all the procedures have */
  methods?: { create?: boolean; update?: boolean; delete?: boolean };
  /** extra operations on one row, mounted as `{path}/{id}/{name}` (duplicate, planningBudget, …) */
  actions?: V2Action[];
  /**
   * false when the shared conformance walk cannot check it (the reference lacks its
   * definition, or it has no rows in a fresh environment): its own tests check its shape
   */
  conformance?: boolean;
}

/** An operation of its own path on one row (`PUT sales/quoteemail/{id}`, `GET sales/converttoproject/{id}`). */
export interface V2Operation {
  /** below /api/v2, without the id */
  path: string;
  method: 'GET' | 'POST' | 'PUT';
  names: V2Names;
  call(caller: Caller): (input: { id: string; data: never }) => Promise<unknown>;
  /** the v2 shape of the answer; it may read more through the caller */
  read?: (result: never, caller: Caller) => unknown;
}

export function v2Operation(o: V2Operation): V2Operation {
  return o;
}

/** An operation on one row: the body (or, for GET, the query) in v2 names goes to the procedure as `data`. */
export interface V2Action {
  name: string;
  method: 'GET' | 'POST' | 'PUT';
  call(caller: Caller): (input: { id: string; data: never }) => Promise<unknown>;
  /** the v2 shape of the answer; the answer as it is when absent */
  read?: (result: never) => unknown;
}

// biome-ignore lint/suspicious/noExplicitAny: the registry holds resources of any row type
export type AnyV2Resource = V2Resource<any>;

export function v2Resource<Row>(r: V2Resource<Row>): V2Resource<Row> {
  return r;
}

/**
 * A domain error as v2 shows it: domain paths in violations and list-query messages
 * become the v2 names the client used.
 */
export function inV2Terms(err: unknown, names: V2Names, pathsUsed: string[] = []): unknown {
  const domain = toDomainError(err);
  if (domain instanceof ValidationError) {
    return new ValidationError(domain.violations.map((v) => ({ ...v, path: names.pathToV2(v.path) })));
  }
  if (domain instanceof BadRequestError || (domain instanceof ForbiddenError && pathsUsed.length)) {
    let message = domain.message;
    // longest first, so `a.b` is rewritten before `a`
    for (const v2 of [...pathsUsed].sort((a, b) => b.length - a.length)) {
      const d = names.pathToDomain(v2);
      if (d !== v2) message = message.split(d).join(v2);
    }
    if (domain instanceof ForbiddenError) return new ForbiddenError(message);
    const parameter = domain.parameter;
    return new BadRequestError(message, parameter);
  }
  return err;
}
