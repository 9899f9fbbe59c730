import { TRPCError } from '@trpc/server';
import { ZodError } from 'zod';
import { ListQueryError } from '@bo/db';

/** Typed errors of the domain; each adapter renders them in its own wire shape. */
export interface Violation {
  /** dotted path of the offending property, '' for the whole input */
  path: string;
  message: string;
  /** what kind of violation: required, invalid_type, too_small, unknown_property, not_found, … */
  code: string;
}

export abstract class DomainError extends Error {
  abstract readonly kind:
    | 'not_found'
    | 'forbidden'
    | 'unauthenticated'
    | 'validation'
    | 'bad_request'
    | 'business_rule'
    | 'conflict'
    | 'rate_limited'
    | 'unavailable'
    | 'gone'
    | 'precondition_failed';
}

export class NotFoundError extends DomainError {
  readonly kind = 'not_found';
  constructor(
    readonly entityType: string,
    readonly id?: string,
  ) {
    super(id ? `${entityType} ${id} not found` : `${entityType} not found`);
  }
}

export class ForbiddenError extends DomainError {
  readonly kind = 'forbidden';
  constructor(message = 'access denied') {
    super(message);
  }
}

export class UnauthenticatedError extends DomainError {
  readonly kind = 'unauthenticated';
  constructor(message = 'missing or invalid credentials') {
    super(message);
  }
}

/** Input that does not satisfy the model: one violation per offending property. */
export class ValidationError extends DomainError {
  readonly kind = 'validation';
  constructor(readonly violations: Violation[]) {
    super(violations.map((v) => (v.path ? `${v.path}: ${v.message}` : v.message)).join('; '));
  }
}

/** A request that cannot be understood, e.g. an unknown filter path; names the parameter. */
export class BadRequestError extends DomainError {
  readonly kind = 'bad_request';
  constructor(
    message: string,
    readonly parameter?: string,
  ) {
    super(message);
  }
}

/** A well-formed request that a business rule refuses. */
export class BusinessRuleError extends DomainError {
  readonly kind = 'business_rule';
}

export class ConflictError extends DomainError {
  readonly kind = 'conflict';
}

export class RateLimitedError extends DomainError {
  readonly kind = 'rate_limited';
  constructor(readonly retryAfterSeconds: number) {
    super('rate limit exceeded');
  }
}

export class UnavailableError extends DomainError {
  readonly kind = 'unavailable';
}

/** The environment's writes pause while a move copies its last changes to another cluster: 503 with Retry-After. */
export class EnvironmentMovingError extends UnavailableError {
  readonly retryAfterSeconds = 2;
  constructor() {
    super('the environment is moving to another database cluster; writes resume within seconds');
  }
}

/** What was asked for existed and is gone for good (a change-feed cursor older than the retention): 410. */
export class GoneError extends DomainError {
  readonly kind = 'gone';
}

/** A condition the request set (`If-Match`) does not hold: 412, and nothing changed. */
export class PreconditionFailedError extends DomainError {
  readonly kind = 'precondition_failed';
}

export const REQUIRED_MESSAGE = 'This value is required.';

function zodPath(path: readonly PropertyKey[]): string {
  return path.map((p) => String(p)).join('.');
}

export function violationsFromZod(err: ZodError, stripPrefix?: string): Violation[] {
  const out: Violation[] = [];
  for (const issue of err.issues) {
    let path = [...issue.path];
    if (stripPrefix && path[0] === stripPrefix) path = path.slice(1);
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        out.push({ path: zodPath([...path, key]), message: 'This property is not allowed.', code: 'unknown_property' });
      }
      continue;
    }
    const code = issue.message === REQUIRED_MESSAGE ? 'required' : issue.code;
    out.push({ path: zodPath(path), message: issue.message, code });
  }
  return out;
}

/** The SQLSTATE of a database error, whether it comes from pg directly or wrapped by Prisma. */
export function sqlStateOf(err: unknown): { code: string; message: string } | null {
  if (!err || typeof err !== 'object') return null;
  const e = err as {
    code?: unknown;
    message?: unknown;
    meta?: { driverAdapterError?: { cause?: { originalCode?: unknown; originalMessage?: unknown } } };
  };
  const cause = e.meta?.driverAdapterError?.cause;
  if (cause && typeof cause.originalCode === 'string') {
    return { code: cause.originalCode, message: String(cause.originalMessage ?? '') };
  }
  if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) return { code: e.code, message: String(e.message ?? '') };
  return null;
}

/**
 * Database errors that a request's values cause are the client's to fix, not
 * ours: a NUL character in text, a date out of range, a duplicate key.
 */
function fromDatabase(err: unknown): DomainError | null {
  const state = sqlStateOf(err);
  if (!state) return null;
  if (state.code === '22021' || state.code === '22P05') return new BadRequestError('text must not contain NUL characters');
  // in our own words: the database's message names its internals (types, time zone displacement, …)
  if (state.code.startsWith('22')) return new BadRequestError('a value is out of range or malformed');
  // statement_timeout, or the request's client went away (pg_cancel_backend)
  if (state.code === '57014') {
    return new UnavailableError('the query took too long and was stopped; narrow the filter or retry later');
  }
  // the environment's fair share of database connections is taken and its queue is full
  if (state.code === '53300') {
    return new UnavailableError('too many requests of this environment are running; retry shortly');
  }
  // a required column left empty or a value a check constraint refuses: the schemas check a write's
  // values first (writes that skip Prisma's own checks rely on them); this is the net, never a 500
  if (state.code === '23502') return new BadRequestError('a required value is missing');
  if (state.code === '23514') return new BadRequestError('a value is not allowed here');
  if (state.code === '23505') return new ConflictError('a record with the same unique value exists already');
  if (state.code === '23503')
    return new BusinessRuleError('the request refers to a record that does not exist or is still in use');
  // the environment's write fence (several clusters): a move fenced it off this cluster after the write was admitted
  if (state.code === 'BOMV1') return new EnvironmentMovingError();
  if (state.code === '40001' || state.code === '40P01' || state.code === '55P03') {
    return new UnavailableError('the change collided with another one; retry it');
  }
  return null;
}

/** Unwraps what a tRPC caller throws into a DomainError, or null for a real bug. */
export function toDomainError(err: unknown): DomainError | null {
  if (err instanceof DomainError) return err;
  const database = fromDatabase(err);
  if (database) return database;
  // Prisma's own refusal of a number its column cannot hold (schemas bound numbers first; this is the net)
  if ((err as { code?: unknown } | null)?.code === 'P2033') return new BadRequestError('a number is out of range');
  if (err instanceof ListQueryError) return new BadRequestError(err.message, err.parameter);
  if (err instanceof ZodError) return new ValidationError(violationsFromZod(err, 'data'));
  if (err instanceof TRPCError) {
    if (err.cause) {
      const inner = toDomainError(err.cause);
      if (inner) return inner;
    }
    if (err.code === 'NOT_FOUND') return new NotFoundError('procedure');
    if (err.code === 'BAD_REQUEST' || err.code === 'PARSE_ERROR') return new BadRequestError(err.message);
    if (err.code === 'UNAUTHORIZED') return new UnauthenticatedError();
    if (err.code === 'FORBIDDEN') return new ForbiddenError();
  }
  return null;
}
