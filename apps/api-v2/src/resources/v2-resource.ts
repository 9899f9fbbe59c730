import {
  type AnyEntity,
  BadRequestError,
  type createCaller,
  ForbiddenError,
  type ListQuery,
  toDomainError,
  ValidationError,
} from '@bo/domain';
import type { z } from 'zod';
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
  /** the domain entity it shows: its output schema documents the read */
  entity: AnyEntity;
  procedures(caller: Caller): EntityProcedures<Row>;
  names: V2Names;
  /** the v2 read shape of a row (reference: Get…) */
  read(row: Row): Record<string, unknown>;
  /** fields `select` always keeps beside `id` */
  alwaysSelected?: string[];
  /** the domain input schemas of the writes, for the document (`remove`: whether DELETE is offered) */
  inputs?: { create?: z.ZodType; update?: z.ZodType; remove?: boolean };
  /** v2 fields the mapping builds itself from an entity field of the same name (documented as built, not as declared) */
  documentAsBuilt?: string[];
  /** which of create, update and delete v2 offers, when not all the procedures have */
  methods?: { create?: boolean; update?: boolean; delete?: boolean };
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
