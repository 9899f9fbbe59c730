import { initTRPC, TRPCError } from '@trpc/server';
import type { TRPC_ERROR_CODE_KEY } from '@trpc/server/rpc';
import { z } from 'zod';
import { type ScopedClient, type TenantSql, tenantSql } from '@bo/db';
import {
  DomainError,
  ForbiddenError,
  REQUIRED_MESSAGE,
  toDomainError,
  UnauthenticatedError,
  ValidationError,
} from './shared/errors.js';
import type { DomainContext, UserPrincipal } from './shared/context.js';
import { scopedDb } from './shared/context.js';
import type { ModuleName } from './shared/rights.js';
import { requireRight } from './shared/rights.js';

// A missing property reads "required" in every message, whatever the schema.
z.config({
  customError: (issue) => (issue.code === 'invalid_type' && issue.input === undefined ? REQUIRED_MESSAGE : undefined),
});

const t = initTRPC.context<DomainContext>().create({
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

const TRPC_CODES: Record<DomainError['kind'], TRPC_ERROR_CODE_KEY> = {
  not_found: 'NOT_FOUND',
  forbidden: 'FORBIDDEN',
  unauthenticated: 'UNAUTHORIZED',
  validation: 'BAD_REQUEST',
  bad_request: 'BAD_REQUEST',
  business_rule: 'UNPROCESSABLE_CONTENT',
  conflict: 'CONFLICT',
  rate_limited: 'TOO_MANY_REQUESTS',
  unavailable: 'SERVICE_UNAVAILABLE',
};

/** Gives tRPC's own transport the status of each domain error; the error stays reachable as `cause`. */
const domainErrorCodes = t.middleware(async ({ next }) => {
  const result = await next();
  if (result.ok) return result;
  // a domain error, or one the domain knows how to name (a database refusal of a value, a timeout)
  const cause =
    result.error.cause instanceof DomainError
      ? result.error.cause
      : result.error.code === 'INTERNAL_SERVER_ERROR'
        ? toDomainError(result.error.cause ?? result.error)
        : null;
  if (cause) return { ...result, error: new TRPCError({ code: TRPC_CODES[cause.kind], message: cause.message, cause }) };
  return result;
});

export const router = t.router;
export const mergeRouters = t.mergeRouters;
export const publicProcedure = t.procedure.use(domainErrorCodes);

/** A user's context: ctx.db scoped to the token's environment, ctx.sql its tenant reader. */
function userContext(ctx: DomainContext) {
  const principal = ctx.principal;
  if (!principal) throw new UnauthenticatedError();
  if (principal.kind !== 'user') throw new ForbiddenError('a user token is required');
  const db: ScopedClient = scopedDb(ctx.prisma, principal.environmentId);
  const sql = tenantSql(ctx.prisma, principal.environmentId);
  return { ...ctx, principal, db, sql };
}

/** Procedures for a token's user in its environment; ctx.db is scoped to that environment. */
export const userProcedure = publicProcedure.use(({ ctx, next }) => next({ ctx: userContext(ctx) }));

/** db: Prisma scoped to the environment; sql: raw reads with the environment bound as $1 (hot list pages). */
export type UserContext = DomainContext & { principal: UserPrincipal; db: ScopedClient; sql: TenantSql };

/** A user's procedure guarded by a module right: one middleware (each one costs tRPC a context merge per call). */
export function moduleProcedure(module: ModuleName, level: 'read' | 'write') {
  return publicProcedure.use(({ ctx, next }) => {
    const user = userContext(ctx);
    requireRight(user.principal.rights, module, level);
    return next({ ctx: user });
  });
}

/** Internal administration: only in-process callers with the system principal. */
export const systemProcedure = publicProcedure.use(({ ctx, next }) => {
  if (ctx.principal?.kind !== 'system') throw new ForbiddenError('internal procedure');
  return next();
});

export const createCallerFactory = t.createCallerFactory;
