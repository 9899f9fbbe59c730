import { z } from 'zod';
import type { UserContext } from '../trpc.js';
import { ForbiddenError, NotFoundError, ValidationError } from '../shared/errors.js';
import { type Rights, rightsSchema, rightsWithin } from '../shared/rights.js';
import { newEntityId } from '../shared/ids.js';
import { hashSecret, newTokenCredentials } from './token-secret.js';

/**
 * The API section of the environment's settings: its tokens, for a user with
 * the settings right. A token is listed with its user, when it was created and
 * last used and whether it is active, never its secret; a new one's secret is
 * answered once; deleting one deactivates it for good.
 */
export const settingsTokenSchema = z.object({
  id: z.string(),
  key: z.string(),
  userEmail: z.string(),
  label: z.string().nullable(),
  createdAt: z.date(),
  lastUsedAt: z.date().nullable(),
  active: z.boolean(),
});
export type SettingsToken = z.infer<typeof settingsTokenSchema>;

export async function listEnvironmentTokens(ctx: UserContext): Promise<SettingsToken[]> {
  const rows = await ctx.db.apiToken.findMany({
    include: { user: { select: { email: true } } },
    orderBy: [{ createdAt: 'desc' }, { id: 'asc' }],
  });
  return rows.map((t) => ({
    id: t.id,
    key: t.key,
    userEmail: t.user.email,
    label: t.label,
    createdAt: t.createdAt,
    lastUsedAt: t.lastUsedAt,
    active: t.deactivatedAt === null,
  }));
}

export const environmentUserSchema = z.object({ id: z.string(), email: z.string() });

/**
 * A token has exactly its user's rights, so a user may make tokens only for users whose rights they
 * hold themselves (never a token with more rights than their own). The operator's CLI acts as the
 * system and is not bound by it.
 */
function mayMintFor(ctx: UserContext, userRights: unknown): boolean {
  const parsed = rightsSchema.safeParse(userRights);
  const rights: Rights = parsed.success ? parsed.data : {};
  return rightsWithin(rights, ctx.principal.rights);
}

/** the users the caller may make a token for */
export async function listEnvironmentUsers(ctx: UserContext): Promise<z.infer<typeof environmentUserSchema>[]> {
  const users = await ctx.db.user.findMany({
    where: { isActive: true },
    select: { id: true, email: true, rights: true },
    orderBy: { email: 'asc' },
  });
  return users.filter((u) => mayMintFor(ctx, u.rights)).map((u) => ({ id: u.id, email: u.email }));
}

export const createSettingsTokenInput = z.object({
  userId: z.string().min(1, 'choose a user'),
  label: z.string().trim().max(100, 'a label is at most 100 characters').optional(),
});

/** a new token: its secret is answered this once */
export const createdSettingsTokenSchema = z.object({
  id: z.string(),
  userEmail: z.string(),
  key: z.string(),
  secret: z.string(),
});

export async function createEnvironmentToken(
  ctx: UserContext,
  input: z.infer<typeof createSettingsTokenInput>,
): Promise<z.infer<typeof createdSettingsTokenSchema>> {
  const user = await ctx.db.user.findFirst({ where: { id: input.userId, isActive: true } });
  if (!user) throw new ValidationError([{ path: 'userId', message: 'no active user with this id here', code: 'not_found' }]);
  if (!mayMintFor(ctx, user.rights)) {
    throw new ForbiddenError("a token has its user's rights: you may only make tokens for users whose rights you hold yourself");
  }
  const { key, secret } = newTokenCredentials();
  const token = await ctx.db.apiToken.create({
    data: {
      id: newEntityId('token'),
      environmentId: ctx.principal.environmentId,
      userId: user.id,
      key,
      secretHash: hashSecret(secret),
      label: input.label || null,
    },
  });
  return { id: token.id, userEmail: user.email, key, secret };
}

export const deactivatedSettingsTokenSchema = z.object({ id: z.string(), active: z.literal(false) });

export async function deactivateEnvironmentToken(
  ctx: UserContext,
  id: string,
): Promise<z.infer<typeof deactivatedSettingsTokenSchema>> {
  const token = await ctx.db.apiToken.findFirst({ where: { id } });
  if (!token) throw new NotFoundError('token', id);
  if (!token.deactivatedAt) await ctx.db.apiToken.update({ where: { id }, data: { deactivatedAt: ctx.clock.now() } });
  return { id, active: false };
}
