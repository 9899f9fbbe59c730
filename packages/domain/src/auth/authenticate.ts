import { rawRead, rememberedReadsOf } from '@bo/db';
import { z } from 'zod';
import type { DomainContext, UserPrincipal } from '../shared/context.js';
import { NotFoundError, UnauthenticatedError } from '../shared/errors.js';
import { type Rights, rightsSchema } from '../shared/rights.js';
import { secretMatches } from './token-secret.js';

export const authenticateInput = z.object({
  /** the environment named by the request's host */
  environment: z.string(),
  key: z.string().nullable(),
  secret: z.string().nullable(),
});
export type AuthenticateInput = z.infer<typeof authenticateInput>;

/** A token's user in its environment, as authenticate answers it (the shared UserPrincipal). */
export const userPrincipalSchema = z.object({
  kind: z.literal('user'),
  environmentId: z.string(),
  environmentName: z.string(),
  userId: z.string(),
  tokenId: z.string().nullable(),
  rights: rightsSchema,
}) satisfies z.ZodType<UserPrincipal>;

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
 * Environment ids, remembered per database client (a process may serve several: the
 * benchmark runner, the tests). Environments are never renamed, so their ids may be
 * remembered; misses are not.
 */
const environmentIdsByClient = new WeakMap<object, Map<string, string>>();
function environmentIdsOf(ctx: DomainContext): Map<string, string> {
  let ids = environmentIdsByClient.get(ctx.prisma);
  if (!ids) {
    ids = new Map();
    environmentIdsByClient.set(ctx.prisma, ids);
  }
  return ids;
}
const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * The token and its user in one statement (Prisma's include takes two), remembered by the
 * process for at most a second and forgotten on every process the moment a token or a user
 * changes (LISTEN credentials_changed; see @bo/db remembered.ts), and used only once the listening
 * connection has caught up with the request: a deleted token, a deactivated user or rights taken
 * away count at the next request. Without a listening connection (the
 * embedded database, DB_LISTEN=false) the row is read on every request. (This cache was withdrawn
 * once, blamed for the hardening-pathological-filters flake; that flake was the shared
 * maintenance read held to one environment's share, fixed in tests/shared-reads.test.ts.)
 */
async function tokenRow(ctx: DomainContext, key: string): Promise<TokenRow | undefined> {
  return rememberedReadsOf(ctx.prisma).read('credentials_changed', key, async () => {
    const [row] = await rawRead(ctx.prisma)<TokenRow>(
      `SELECT t.id, t.environment_id AS "environmentId", t.user_id AS "userId", t.secret_hash AS "secretHash",
              t.last_used_at AS "lastUsedAt", t.deactivated_at AS "deactivatedAt", u.is_active AS "userActive", u.rights
         FROM api_token t JOIN user_account u ON u.id = t.user_id
        WHERE t.key = $1`,
      [key],
      // a lookup by a unique key: one plan serves every key
      { stablePlan: true },
    );
    return row;
  });
}

/** The environment's id when this process has read it before (no promise: asked on every request), else undefined. */
export function knownEnvironmentId(ctx: DomainContext, name: string): string | undefined {
  return environmentIdsOf(ctx).get(name);
}

export async function findEnvironmentId(ctx: DomainContext, name: string): Promise<string | null> {
  const environmentIds = environmentIdsOf(ctx);
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
  const environmentId = knownEnvironmentId(ctx, input.environment) ?? (await findEnvironmentId(ctx, input.environment));
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
    // the remembered row learns it too: the requests of the next second do not write it again
    token.lastUsedAt = now;
    await ctx.prisma.apiToken.update({ where: { id: token.id }, data: { lastUsedAt: now } });
  }
  return {
    kind: 'user',
    environmentId,
    environmentName: input.environment,
    userId: token.userId,
    tokenId: token.id,
    rights: rightsOf(token),
  };
}

/**
 * A token row's rights, checked once per row read: a remembered row serves the requests of up to a
 * second, which parsed the same rights again each (the schema's record of every module).
 */
const parsedRights = new WeakMap<TokenRow, Rights>();
function rightsOf(token: TokenRow): Rights {
  let rights = parsedRights.get(token);
  if (!rights) {
    const parsed = rightsSchema.safeParse(token.rights);
    rights = parsed.success ? parsed.data : {};
    parsedRights.set(token, rights);
  }
  return rights;
}
