import { rawRead } from '@bo/db';
import { z } from 'zod';
import type { DomainContext, UserPrincipal } from '../shared/context.js';
import { NotFoundError, UnauthenticatedError } from '../shared/errors.js';
import { rightsSchema } from '../shared/rights.js';
import { secretMatches } from './token-secret.js';

export const authenticateInput = z.object({
  /** the environment named by the request's host */
  environment: z.string(),
  key: z.string().nullable(),
  secret: z.string().nullable(),
});
export type AuthenticateInput = z.infer<typeof authenticateInput>;

interface TokenRow {
  id: string;
  environmentId: string;
  userId: string;
  secretHash: string;
  lastUsedAt: Date | null;
  deactivatedAt: Date | null;
  userActive: boolean;
  rights: unknown;
}

/**
 * What is remembered per database (a process may serve several: the benchmark runner, the
 * tests): environment ids, which never change (misses are not remembered), and token rows.
 */
interface Remembered {
  environmentIds: Map<string, string>;
  tokenRows: Map<string, { row: TokenRow; at: number; generation: number }>;
}
const remembered = new WeakMap<object, Remembered>();
function rememberedFor(ctx: DomainContext): Remembered {
  let r = remembered.get(ctx.prisma);
  if (!r) {
    r = { environmentIds: new Map(), tokenRows: new Map() };
    remembered.set(ctx.prisma, r);
  }
  return r;
}
/** bumped by forgetTokens: every token row remembered before it is stale */
let tokenGeneration = 0;
const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * A token row (with its user's rights and state) is remembered this long, so that a busy
 * token costs no round trip per request: a deleted token or a deactivated user stops
 * working within this time on every process, and at once on the process that deleted it
 * (forgetTokens). Only tokens that exist are remembered, so made-up keys cannot grow it.
 */
export const TOKEN_CACHE_MS = 1000;
const TOKEN_CACHE_LIMIT = 10_000;

/** Forgets every remembered token row (a token was deleted, a user changed). */
export function forgetTokens(): void {
  tokenGeneration += 1;
}

async function tokenRow(ctx: DomainContext, key: string): Promise<TokenRow | undefined> {
  // real elapsed time, not the service clock (tests may hold that still)
  const now = performance.now();
  const { tokenRows } = rememberedFor(ctx);
  const cached = tokenRows.get(key);
  if (cached && cached.generation === tokenGeneration && now - cached.at < TOKEN_CACHE_MS) return cached.row;
  // the token and its user in one statement (Prisma's include takes two)
  const [row] = await rawRead(ctx.prisma)<TokenRow>(
    `SELECT t.id, t.environment_id AS "environmentId", t.user_id AS "userId", t.secret_hash AS "secretHash",
            t.last_used_at AS "lastUsedAt", t.deactivated_at AS "deactivatedAt", u.is_active AS "userActive", u.rights
       FROM api_token t JOIN user_account u ON u.id = t.user_id
      WHERE t.key = $1`,
    [key],
  );
  if (!row) {
    tokenRows.delete(key);
    return undefined;
  }
  if (tokenRows.size >= TOKEN_CACHE_LIMIT) tokenRows.clear();
  tokenRows.set(key, { row, at: now, generation: tokenGeneration });
  return row;
}

export async function findEnvironmentId(ctx: DomainContext, name: string): Promise<string | null> {
  const { environmentIds } = rememberedFor(ctx);
  const cached = environmentIds.get(name);
  if (cached) return cached;
  const env = await ctx.prisma.environment.findUnique({ where: { name } });
  if (!env) return null;
  environmentIds.set(name, env.id);
  return env.id;
}

/**
 * Resolves a request's credentials to the token's user in the host's environment.
 * An unknown environment is NotFound (nothing else is said); any other failure,
 * including a token of another environment, is Unauthenticated.
 */
export async function authenticate(ctx: DomainContext, input: AuthenticateInput): Promise<UserPrincipal> {
  const environmentId = await findEnvironmentId(ctx, input.environment);
  if (!environmentId) throw new NotFoundError('environment');
  if (!input.key || !input.secret) throw new UnauthenticatedError();
  const token = await tokenRow(ctx, input.key);
  if (
    !token ||
    token.environmentId !== environmentId ||
    token.deactivatedAt !== null ||
    !token.userActive ||
    !secretMatches(input.secret, token.secretHash)
  ) {
    throw new UnauthenticatedError();
  }
  const now = ctx.clock.now();
  // recorded at a one-minute resolution so that a busy token does not write on every request
  if (!token.lastUsedAt || now.getTime() - token.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
    await ctx.prisma.apiToken.update({ where: { id: token.id }, data: { lastUsedAt: now } });
    token.lastUsedAt = now;
  }
  const rights = rightsSchema.safeParse(token.rights);
  return {
    kind: 'user',
    environmentId,
    environmentName: input.environment,
    userId: token.userId,
    tokenId: token.id,
    rights: rights.success ? rights.data : {},
  };
}
