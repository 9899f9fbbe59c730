import { type AnyProcedure, type AnyRouter, initTRPC, TRPCError } from '@trpc/server';
import type { TRPC_ERROR_CODE_KEY } from '@trpc/server/rpc';
import { getParseFn, getTRPCErrorFromUnknown, type ParseFn } from '@trpc/server/unstable-core-do-not-import';
import { z } from 'zod';
import {
  fenceRequestWrites,
  noteRequestWrite,
  type Placement,
  placementOf,
  type PrismaClient,
  type ScopedClient,
  type TenantSql,
  tenantSql,
  withGlobalReads,
} from '@bo/db';
import {
  BadRequestError,
  DomainError,
  EnvironmentMovingError,
  REQUIRED_MESSAGE,
  toDomainError,
  ValidationError,
} from './shared/errors.js';
import { unknownInputKeys } from './shared/unknown-input-keys.js';
import type { DomainContext, UserPrincipal } from './shared/context.js';
import { placedPrisma, placedScopedDb, scopedDb } from './shared/context.js';
import type { DeclaredRight, ModuleName, ProcedureMeta } from './shared/rights.js';
import { requireDeclaredRight } from './shared/rights.js';

// A missing property reads "required" in every message, whatever the schema.
z.config({
  customError: (issue) => (issue.code === 'invalid_type' && issue.input === undefined ? REQUIRED_MESSAGE : undefined),
});

// every procedure declares the right it needs in its meta (see the builders below), so that a door's
// guard reads it without calling the procedure
const trpc = initTRPC.context<DomainContext>().meta<ProcedureMeta>();
const t = trpc.create({
  isServer: true,
  // never a stack trace in an answer, whatever NODE_ENV says
  isDev: false,
  // what /trpc answers: the code, status and our own message; an unexpected error says
  // nothing of its cause (no file path, no database message), it is logged with the request id
  errorFormatter({ shape, error }) {
    const domain = error.cause instanceof DomainError ? error.cause : null;
    const internal = error.code === 'INTERNAL_SERVER_ERROR' && !domain;
    return {
      code: shape.code,
      message: internal ? 'internal error; the request id is in the X-Request-Id header' : shape.message,
      data: {
        code: shape.data.code,
        httpStatus: shape.data.httpStatus,
        ...(shape.data.path ? { path: shape.data.path } : {}),
        ...(domain instanceof ValidationError ? { violations: domain.violations } : {}),
      },
    };
  },
});

/** The tRPC code of each domain error (the /trpc door renders the guard's refusals with it too). */
export const TRPC_CODES: Record<DomainError['kind'], TRPC_ERROR_CODE_KEY> = {
  not_found: 'NOT_FOUND',
  forbidden: 'FORBIDDEN',
  unauthenticated: 'UNAUTHORIZED',
  validation: 'BAD_REQUEST',
  bad_request: 'BAD_REQUEST',
  business_rule: 'UNPROCESSABLE_CONTENT',
  conflict: 'CONFLICT',
  rate_limited: 'TOO_MANY_REQUESTS',
  unavailable: 'SERVICE_UNAVAILABLE',
  // tRPC has no 410: a cursor past its retention is a resource that is not there (any longer)
  gone: 'NOT_FOUND',
  precondition_failed: 'PRECONDITION_FAILED',
};

/**
 * The tRPC error that names a domain error (or one the domain knows how to name: a database refusal
 * of a value, a timeout) with its code, so tRPC's own transport answers its status; the domain error
 * stays reachable as `cause`. Any other error is returned as it is.
 */
function named(error: TRPCError): TRPCError {
  const cause =
    error.cause instanceof DomainError
      ? error.cause
      : error.code === 'INTERNAL_SERVER_ERROR'
        ? toDomainError(error.cause ?? error)
        : null;
  return cause ? new TRPCError({ code: TRPC_CODES[cause.kind], message: cause.message, cause }) : error;
}

/** What a thrown value becomes: tRPC would wrap it as an internal error, which `named` then names. */
const thrownAsTrpc = (thrown: unknown): TRPCError =>
  named(thrown instanceof TRPCError ? thrown : new TRPCError({ code: 'INTERNAL_SERVER_ERROR', cause: thrown }));

/** A procedure's result with its error named (`named`): what a separate middleware did before. */
function withNamedError<R extends { ok: true } | { ok: false; error: TRPCError }>(result: R): R {
  if (result.ok) return result;
  const error = named(result.error);
  return error === result.error ? result : { ...result, error };
}

export const router = t.router;
export const mergeRouters = t.mergeRouters;

const PUBLIC: DeclaredRight = { kind: 'public' };
const USER: DeclaredRight = { kind: 'user' };
const SYSTEM: DeclaredRight = { kind: 'system' };

/**
 * Inputs are strict: a key the procedure's input schema does not know, at any depth, is refused
 * (BAD_REQUEST naming it) instead of being dropped by zod (issue 28, section 6). A caller whose
 * door tolerates unknown keys by contract (v2) says so in its context (`unknownInputKeys: 'drop'`).
 * Checked after the right, before the input is parsed (so the key is named whatever else is wrong).
 * The schema is the one `.input()` declared, kept in the procedure's meta (`strictInputs`).
 */
async function refuseUnknownKeys(ctx: DomainContext, meta: ProcedureMeta | undefined, getRawInput: () => Promise<unknown>) {
  const schema = meta?.strictInput;
  if (ctx.unknownInputKeys === 'drop' || !(schema instanceof z.ZodType)) return;
  const unknown = unknownInputKeys(schema, await getRawInput());
  if (unknown.length > 0) {
    throw new BadRequestError(`unknown input ${unknown.length === 1 ? 'key' : 'keys'}: ${unknown.join(', ')}`, unknown[0]);
  }
}

interface BuilderLike {
  meta(meta: ProcedureMeta): BuilderLike;
  input(schema: unknown): BuilderLike;
}

const isBuilder = (v: unknown): v is BuilderLike =>
  typeof v === 'object' && v !== null && '_def' in v && typeof (v as { input?: unknown }).input === 'function';

/**
 * A procedure builder whose every input is strict: `.input(schema)` keeps the schema in the
 * procedure's meta, where its one guarding middleware (below) checks the raw input's keys before
 * the parse; every builder derived from this one (`meta`, `use`, `input`, `output`) is strict too.
 * (No procedure chains two inputs, whose keys tRPC would merge: a test walks the router for that.)
 * Not a middleware of its own: each level of middleware costs tRPC two copies of its options and
 * one of the context per call, which showed in the profile of a read by id.
 */
function strictInputs<B>(builder: B): B {
  return new Proxy(builder as unknown as BuilderLike, {
    get(target, prop, receiver) {
      const member: unknown = Reflect.get(target, prop, receiver);
      if (typeof member !== 'function') return member;
      if (prop === 'input') return (schema: unknown) => strictInputs(target.meta({ strictInput: schema }).input(schema));
      return (...args: unknown[]) => {
        const result: unknown = member.apply(target, args);
        return isBuilder(result) ? strictInputs(result) : result;
      };
    },
  }) as unknown as B;
}

const strictProcedure = strictInputs(t.procedure);

/**
 * Procedures anyone may call (sign-in, the token check itself): they declare no right. Each kind of
 * procedure below has one middleware of its own, which names domain errors, checks the right and the
 * input's keys and builds the context: a middleware level per concern cost a context merge each.
 */
export const publicProcedure = strictProcedure.meta({ right: PUBLIC }).use(async ({ ctx, meta, getRawInput, next }) => {
  try {
    await refuseUnknownKeys(ctx, meta, getRawInput);
  } catch (thrown) {
    throw thrownAsTrpc(thrown);
  }
  return withNamedError(await next());
});

/**
 * A user's context, once the declared right holds: ctx.db scoped to the token's environment, ctx.sql its
 * tenant reader. A query's raw reads may go to a read replica that has replayed everything the request
 * must see (@bo/db replicas.ts); a mutation's reads and writes all go to the primary.
 */
function userContext(ctx: DomainContext, right: DeclaredRight, type: ProcedureType): UserContextChanges {
  requireDeclaredRight(ctx.principal, right);
  const principal = ctx.principal as UserPrincipal;
  const db: ScopedClient = scopedDb(ctx.prisma, principal.environmentId);
  const sql = tenantSql(ctx.prisma, principal.environmentId, { replicaReads: type === 'query' });
  return { prisma: ctx.prisma, principal, db, sql };
}

/**
 * What a user's middleware changes in the context: only these keys go to tRPC's next(), which
 * merges them into the context it has (a copy of the whole context each, key by key).
 */
interface UserContextChanges {
  prisma: PrismaClient;
  principal: UserPrincipal;
  db: ScopedClient;
  sql: TenantSql;
}

/**
 * The same on several clusters (DATABASE_URLS): ctx.prisma, ctx.db and ctx.sql are the environment's
 * cluster (its global models, users and tokens, stay on the global one); a mutation of an environment
 * whose move is copying its last changes is refused with 503 and Retry-After before it starts.
 */
async function placedUserContext(
  placement: Placement,
  ctx: DomainContext,
  right: DeclaredRight,
  type: ProcedureType,
): Promise<UserContextChanges> {
  requireDeclaredRight(ctx.principal, right);
  const principal = ctx.principal as UserPrincipal;
  const place = await placement.of(principal.environmentId);
  if (place.writesFrozen && type === 'mutation') throw new EnvironmentMovingError();
  const tenant: PrismaClient = place.cluster.prisma;
  if (type === 'mutation') {
    // its writes there take the environment's write fence: a move that froze the environment after this
    // admission waits for them, or they are refused (503) if they start after it fenced the cluster off
    fenceRequestWrites(tenant, principal.environmentId);
    if (placementTestHooks.afterAdmission) await placementTestHooks.afterAdmission(principal.environmentId);
  }
  const db: ScopedClient = placedScopedDb(ctx.prisma, tenant, principal.environmentId);
  // replicas are the first cluster's: on another cluster reads go to its primary
  const own = tenantSql(tenant, principal.environmentId, { replicaReads: type === 'query' });
  // there, references to global rows (an employee's user) are checked and read on the first cluster
  const sql =
    tenant === ctx.prisma
      ? own
      : withGlobalReads(own, tenantSql(ctx.prisma, principal.environmentId, { replicaReads: type === 'query' }));
  return { prisma: placedPrisma(ctx.prisma, tenant), principal, db, sql };
}

type ProcedureType = 'query' | 'mutation' | 'subscription';

/**
 * Tests only (tests/placement-gaps.test.ts): awaited once a mutation of an environment on a database of
 * several clusters is admitted, before it runs, to hold it across a move. Unset: one property read.
 */
export const placementTestHooks: { afterAdmission?: (environmentId: string) => Promise<void> } = {};

/**
 * Runs the procedure; after a mutation, whatever it wrote (through any path, Prisma's included) must be
 * seen by the request's later reads, on a replica too: noted in the request's scope.
 */
function run<R>(type: ProcedureType, next: () => Promise<R>): Promise<R> {
  return type === 'mutation' ? next().finally(noteRequestWrite) : next();
}

/**
 * The one middleware of a user's procedure: the right (declared in its meta, which the doors' guard
 * checks before reading a body, checked again here by the same function), the environment's context
 * (on one cluster as it always was: no placement, one WeakMap miss per call), the input's keys, then the
 * procedure, its domain errors named.
 */
function userMiddleware(right: DeclaredRight) {
  const middleware = t.middleware(async ({ ctx, meta, getRawInput, next, type }) => {
    let user: UserContextChanges;
    try {
      user = await admittedUser(ctx, right, type, meta, getRawInput);
    } catch (thrown) {
      throw thrownAsTrpc(thrown);
    }
    return withNamedError(await run(type, () => next({ ctx: user })));
  });
  // the function tRPC puts first in the chain of every procedure built on it (see directQueryOf)
  const fn = (middleware as unknown as { _middlewares?: unknown[] })._middlewares?.[0];
  if (typeof fn !== 'function') throw new Error('a tRPC middleware builder without its function: see directQueryOf');
  userMiddlewareRights.set(fn, right);
  return middleware;
}

/** the user's context changes once the right holds, then the input's keys checked (userMiddleware) */
function admittedUser(
  ctx: DomainContext,
  right: DeclaredRight,
  type: ProcedureType,
  meta: ProcedureMeta | undefined,
  getRawInput: () => Promise<unknown>,
): UserContextChanges | Promise<UserContextChanges> {
  const placement = placementOf(ctx.prisma);
  if (placement) {
    return placedUserContext(placement, ctx, right, type).then(async (user) => {
      await refuseUnknownKeys(ctx, meta, getRawInput);
      return user;
    });
  }
  const user = userContext(ctx, right, type);
  // v2 drops unknown keys: nothing to wait for
  if (ctx.unknownInputKeys === 'drop') return user;
  return refuseUnknownKeys(ctx, meta, getRawInput).then(() => user);
}

/** The right of each user middleware, by the function tRPC runs first for its procedures. */
const userMiddlewareRights = new WeakMap<object, DeclaredRight>();

/**
 * A user's query as the in-process caller runs it without tRPC's middleware engine: the same steps
 * in the same order (the right and the context, the input's keys, the input's parse, the resolver,
 * the output's parse) and the same errors, named as the user middleware names them. tRPC's engine
 * spends about thirty promises, a copy of the options per level and a proxy per path segment on a
 * read by id (docs/performance.md, twentieth session).
 */
interface DirectQuery {
  right: DeclaredRight;
  meta: ProcedureMeta | undefined;
  parseInput: ParseFn<unknown> | null;
  parseOutput: ParseFn<unknown> | null;
  resolver: (opts: object) => unknown;
}

const directQueries = new WeakMap<AnyProcedure, DirectQuery | null>();

/**
 * The direct form of a procedure: only a query built on a user middleware whose chain is exactly
 * that middleware, at most one input's validator, the output's validator when declared, and the
 * resolver (a middleware of its own, or anything else, keeps tRPC's engine). null: none.
 */
export function directQueryOf(procedure: AnyProcedure): DirectQuery | null {
  const known = directQueries.get(procedure);
  if (known !== undefined) return known;
  const def = procedure._def as {
    type?: unknown;
    middlewares?: unknown[];
    inputs?: unknown[];
    output?: unknown;
    resolver?: unknown;
    meta?: ProcedureMeta;
  };
  const right = def.middlewares?.[0] ? userMiddlewareRights.get(def.middlewares[0] as object) : undefined;
  const inputs = def.inputs ?? [];
  const direct =
    def.type === 'query' &&
    right !== undefined &&
    typeof def.resolver === 'function' &&
    inputs.length <= 1 &&
    def.middlewares?.length === 2 + inputs.length + (def.output ? 1 : 0)
      ? {
          right,
          meta: def.meta,
          parseInput: inputs[0] ? getParseFn(inputs[0] as Parameters<typeof getParseFn>[0]) : null,
          parseOutput: def.output ? getParseFn(def.output as Parameters<typeof getParseFn>[0]) : null,
          resolver: def.resolver as DirectQuery['resolver'],
        }
      : null;
  directQueries.set(procedure, direct);
  return direct;
}

async function callDirect(query: DirectQuery, ctx: DomainContext, path: string, rawInput: unknown): Promise<unknown> {
  const getRawInput = async () => rawInput;
  let user: UserContextChanges;
  try {
    const admitted = admittedUser(ctx, query.right, 'query', query.meta, getRawInput);
    user = admitted instanceof Promise ? await admitted : admitted;
  } catch (thrown) {
    throw thrownAsTrpc(thrown);
  }
  try {
    let input: unknown;
    if (query.parseInput) {
      try {
        input = query.parseInput(rawInput);
        if (input instanceof Promise) input = await input;
      } catch (cause) {
        throw new TRPCError({ code: 'BAD_REQUEST', cause });
      }
    }
    // the context tRPC's next({ ctx: user }) makes: the caller's, the user's changes over it
    const userCtx = Object.assign({}, ctx, user);
    let data = await query.resolver({ ctx: userCtx, input, type: 'query', path, getRawInput, meta: query.meta, batchIndex: 0 });
    if (query.parseOutput) {
      try {
        data = query.parseOutput(data);
        if (data instanceof Promise) data = await data;
      } catch (cause) {
        throw new TRPCError({ message: 'Output validation failed', code: 'INTERNAL_SERVER_ERROR', cause });
      }
    }
    return data;
  } catch (cause) {
    throw named(getTRPCErrorFromUnknown(cause));
  }
}

/**
 * The in-process caller of a router: tRPC's (`trpcCaller`, from `createCallerFactory`), except that a user's query
 * with a direct form (directQueryOf) runs directly. Called with options (onError, a signal) or a
 * context callback, it is tRPC's own. A path that names no procedure goes to tRPC's caller, which
 * answers it as ever.
 */
export function withDirectQueries<F extends ReturnType<typeof t.createCallerFactory>>(router: AnyRouter, trpcCaller: F): F {
  const factory = (ctx: DomainContext | (() => unknown), opts?: unknown) => {
    if (opts !== undefined || typeof ctx === 'function') return trpcCaller(ctx as never, opts as never);
    let viaTrpc: unknown;
    const slow = (path: string[]): unknown => {
      viaTrpc ??= trpcCaller(ctx as never);
      let at = viaTrpc as Record<string, unknown>;
      for (const key of path) at = at[key] as Record<string, unknown>;
      return at;
    };
    const nodeOf = (record: object, path: string[]): object =>
      new Proxy(record, {
        get(target, key) {
          // as tRPC's caller: no symbol, and no `then` (a caller is not a promise)
          if (typeof key !== 'string' || key === 'then') return undefined;
          const child: unknown =
            key === '_def' || key === 'createCaller' || !Object.hasOwn(target, key) ? undefined : Reflect.get(target, key);
          const at = [...path, key];
          if (isProcedure(child)) {
            const direct = directQueryOf(child);
            if (direct) return (input?: unknown) => callDirect(direct, ctx, at.join('.'), input);
            return slow(at);
          }
          if (child !== null && typeof child === 'object') return nodeOf(child, at);
          return slow(at);
        },
      });
    return nodeOf(router, []);
  };
  return factory as unknown as F;
}

/** Procedures for a token's user in its environment; ctx.db is scoped to that environment. */
export const userProcedure = strictProcedure.meta({ right: USER }).use(userMiddleware(USER));

/** db: Prisma scoped to the environment; sql: raw reads with the environment bound as $1 (hot list pages). */
export type UserContext = DomainContext & { principal: UserPrincipal; db: ScopedClient; sql: TenantSql };

/** A user's procedure guarded by a module right. */
export function moduleProcedure(module: ModuleName, level: 'read' | 'write') {
  const right: DeclaredRight = { kind: 'module', module, level };
  return strictProcedure.meta({ right }).use(userMiddleware(right));
}

/** Internal administration: only in-process callers with the system principal. */
export const systemProcedure = strictProcedure.meta({ right: SYSTEM }).use(async ({ ctx, meta, getRawInput, next }) => {
  try {
    requireDeclaredRight(ctx.principal, SYSTEM);
    await refuseUnknownKeys(ctx, meta, getRawInput);
  } catch (thrown) {
    throw thrownAsTrpc(thrown);
  }
  return withNamedError(await next());
});

function isProcedure(value: unknown): value is AnyProcedure {
  // a built procedure is a function carrying its meta (tRPC sets `procedure.meta` on every one)
  return typeof value === 'function' && 'meta' in value;
}

/**
 * The procedure an accessor names (`(c) => c.crm.organization.get`), found in the router's public
 * record, where `router.crm.organization.get` is the procedure itself: the accessor is handed the
 * record in place of a caller, so nothing is called. Undefined when the accessor does more than
 * name a procedure (a wrapper that builds the input first).
 */
export function procedureNamedBy<R extends AnyRouter>(
  router: R,
  select: (caller: ReturnType<R['createCaller']>) => unknown,
): AnyProcedure | undefined {
  try {
    const found = select(router as unknown as ReturnType<R['createCaller']>);
    return isProcedure(found) ? found : undefined;
  } catch {
    return undefined;
  }
}

/** The procedure at a dotted path (`crm.organization.list`, as /trpc names it) in the router's public record. */
export function procedureAtPath(router: AnyRouter, path: string): AnyProcedure | undefined {
  let node: unknown = router;
  for (const key of path.split('.')) {
    // the router's own members are no procedures of it
    if (key === '_def' || key === 'createCaller') return undefined;
    if (!node || (typeof node !== 'object' && typeof node !== 'function') || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return isProcedure(node) ? node : undefined;
}

/**
 * The output schema a procedure declares with `.output()`, read from its definition without
 * calling it (tRPC has no accessor of its own for it; this is the one place that reads it).
 */
export function declaredOutputOf(procedure: AnyProcedure): unknown {
  return (procedure._def as { output?: unknown }).output;
}

export const createCallerFactory = t.createCallerFactory;
