import { z } from 'zod';
import type { UserContext } from '../trpc.js';
import { NotFoundError, ValidationError } from '../shared/errors.js';
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

export async function listEnvironmentUsers(ctx: UserContext): Promise<z.infer<typeof environmentUserSchema>[]> {
  return ctx.db.user.findMany({ where: { isActive: true }, select: { id: true, email: true }, orderBy: { email: 'asc' } });
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
