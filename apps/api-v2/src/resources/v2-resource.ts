import {
  type AnyEntity,
  appRouter,
  BadRequestError,
  type createCaller,
  ForbiddenError,
  type ListQuery,
  toDomainError,
  ValidationError,
  type Violation,
  entityOfSchema,
  type EntityProjection,
} from '@bo/domain';
import { declaredOutputOf, procedureNamedBy } from '@bo/domain/trpc';
import type { z } from 'zod';
import type { V2Names } from './v2-names.js';

type Caller = ReturnType<typeof createCaller>;

/** The typed procedures of one entity, as the domain router declares them. */
export interface EntityProcedures<Row> {
  list(input: ListQuery): Promise<{ items: Row[]; count: number | null }>;
  get(input: { id: string }): Promise<Row>;
  /** the page as JSON texts in a projection's shape (entityQueries' `listAs`) */
  listAs?: (input: ListQuery & { projection: EntityProjection }) => Promise<{ items: string[]; count: number | null }>;
  /** one row as a JSON text in a projection's shape, with its version tag (`getAs`) */
  getAs?: (input: { id: string; projection: EntityProjection }) => Promise<{ json: string; tag: string | null }>;
  create?: (input: { data: never }) => Promise<{ id: string }>;
  update?: (input: { id: string; data: never }) => Promise<{ id: string }>;
  delete?: (input: { id: string }) => Promise<{ id: string }>;
}

/** One v2 resource: its path, the entity procedures it calls, and its wire names and shape. */
export interface V2Resource<Row> {
  /** below /api/v2, e.g. `crm/organization` */
  path: string;
  /** the domain entity it shows (its output schema documents the read); found from the procedures when absent */
  entity?: AnyEntity;
  procedures(caller: Caller): EntityProcedures<Row>;
  names: V2Names;
  /** the v2 read shape of a row (reference: Get…); the shape's JS form where a shape is declared */
  read(row: Row): Record<string, unknown>;
  /**
   * the v2 read shape declared (v2-shape.ts) rather than written as `read`: a page's rows are then made
   * as JSON by PostgreSQL, and `read` is compiled from the same declaration
   */
  shape?: EntityProjection;
  /** fields `select` always keeps beside `id` */
  alwaysSelected?: string[];
  /** fields a read shows only when `select` names them (is_editable on hours/hours, 2025-09) */
  selectOnly?: string[];
  /** the domain input schemas of the writes, for the document (`remove`: whether DELETE is offered) */
  inputs?: { create?: z.ZodType; update?: z.ZodType; remove?: boolean };
  /** v2 fields the mapping builds itself from an entity field of the same name (documented as built, not as declared) */
  documentAsBuilt?: string[];
  /**
   * the reference's own spellings of an update, served beside `PUT /{id}`: `POST /{id}`
   * (custom-field groups and options) and `PUT` on the collection with the id in the body (documents)
   */
  referencePaths?: { updateByPost?: boolean; updateOnCollection?: boolean };
  /** read-only by contract (the workflow defaults): every write answers 405 saying so */
  readOnly?: boolean;
  /** which of create, update and delete v2 offers, when not all the procedures have */
  methods?: { create?: boolean; update?: boolean; delete?: boolean };
  /**
   * a write body in domain terms, when renaming keys is not enough (values spelled the v2
   * way, one v2 list feeding two domain lists); `violation` renders a domain violation in
   * the names the client used (null: by the names), for paths that depend on the body
   */
  input?: (body: Record<string, unknown>) => V2Input;
  /** operations on one row beyond CRUD, mounted as `/{path}/{id}/{name}` (duplicate, planningBudget, …) */
  actions?: AnyV2Action[];
  /**
   * 2023-04 (hours/leave, hours/absence): every refusal of a write carries its stable code at the
   * end of its text, `path: message [code]`, as hours bookings do
   */
  errorCodes?: boolean;
  /**
   * false when the shared conformance walk cannot check it (the reference lacks its
   * definition, or it has no rows in a fresh environment): its own tests check its shape
   */
  conformance?: boolean;
}

/** An operation of its own path on one row (`PUT sales/quoteemail/{id}`, `GET sales/converttoproject/{id}`). */
export interface V2RowOperation {
  /** below /api/v2, without the id */
  path: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  names: V2Names;
  call(caller: Caller): (input: { id: string; data: never }) => Promise<unknown>;
  /** the v2 shape of the answer; it may read more through the caller */
  read?: (result: never, caller: Caller) => unknown;
}

export function v2RowOperation(o: V2RowOperation): V2RowOperation {
  return o;
}

export interface V2Input {
  data: unknown;
  violation?: (v: Violation) => Violation | null;
}

/**
 * An operation on one row beyond CRUD. GET actions read (query parameters as input)
 * and never change data; POST actions write (the JSON body as input).
 */
export interface V2Action<Out> {
  name: string;
  method: 'GET' | 'POST' | 'PUT';
  call: (c: Caller) => (input: { id: string; data: never }) => Promise<Out>;
  /** the v2 parameters or body in domain terms; by the resource's names when absent */
  input?: (raw: Record<string, unknown>) => unknown;
  /** the v2 answer; by the resource's names when absent */
  read?: (out: Out, id: string) => unknown;
}

// biome-ignore lint/suspicious/noExplicitAny: a resource holds actions of any answer type
export type AnyV2Action = V2Action<any>;

export function v2Action<Out>(a: V2Action<Out>): V2Action<Out> {
  return a;
}

/** A write's validation error with each violation's code at the end of its text (`errorCodes`). */
export function withErrorCodes(err: unknown): unknown {
  const domain = toDomainError(err);
  if (!(domain instanceof ValidationError)) return err;
  return new ValidationError(
    domain.violations.map((v) => (v.code && !v.message.endsWith(']') ? { ...v, message: `${v.message} [${v.code}]` } : v)),
  );
}

/** A domain error of a write whose body mapped itself (see V2Resource.input), in v2 terms. */
export function inV2WriteTerms(err: unknown, names: V2Names, input: V2Input): unknown {
  const domain = toDomainError(err);
  const violation = input.violation;
  if (violation && domain instanceof ValidationError) {
    return new ValidationError(domain.violations.map((v) => violation(v) ?? { ...v, path: names.pathToV2(v.path) }));
  }
  return inV2Terms(err, names);
}

// biome-ignore lint/suspicious/noExplicitAny: the registry holds resources of any row type
export type AnyV2Resource = V2Resource<any>;

/** A resource declares its read either as code (`read`) or as a shape (`shape`), never both. */
export type V2ResourceDeclaration<Row> = Omit<V2Resource<Row>, 'read' | 'shape'> &
  ({ read: (row: Row) => Record<string, unknown>; shape?: never } | { shape: EntityProjection; read?: never });

/** A resource from its declaration, or a copy of a resource under another path (`{...other, path}`). */
export function v2Resource<Row>(r: V2ResourceDeclaration<Row> | V2Resource<Row>): V2Resource<Row> {
  if (r.shape) {
    const shape = r.shape;
    return { ...r, shape, read: (row: Row) => shape.read(row) };
  }
  return r as V2Resource<Row>;
}

/** The entity a resource shows: declared, or the one its `get` procedure's declared output schema belongs to. */
export function entityOf(r: AnyV2Resource): AnyEntity {
  if (r.entity) return r.entity;
  // the procedure found in the router's public record, never called
  const get = procedureNamedBy(appRouter, (c) => r.procedures(c).get);
  const entity = get ? entityOfSchema(declaredOutputOf(get)) : undefined;
  if (!entity) throw new Error(`${r.path}: no entity declared and none found from its procedures`);
  return entity;
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
