import { z } from 'zod';
import type { DomainContext } from '../shared/context.js';
import { environmentByName } from './environment-lookup.js';

export const listTokensInput = z.object({ environment: z.string() });

/** A token as the admin CLI lists it: date-times in ISO 8601, never the secret. */
export const adminTokenSchema = z.object({
  id: z.string(),
  key: z.string(),
  /** the user's e-mail */
  user: z.string(),
  label: z.string().nullable(),
  active: z.boolean(),
  createdAt: z.iso.datetime(),
  lastUsedAt: z.iso.datetime().nullable(),
  deactivatedAt: z.iso.datetime().nullable(),
});

export async function listTokens(
  ctx: DomainContext,
  input: z.infer<typeof listTokensInput>,
): Promise<z.infer<typeof adminTokenSchema>[]> {
  const env = await environmentByName(ctx, input.environment);
  const tokens = await ctx.prisma.apiToken.findMany({
    where: { environmentId: env.id },
    include: { user: true },
    orderBy: { createdAt: 'asc' },
  });
  return tokens.map((t) => ({
    id: t.id,
    key: t.key,
    user: t.user.email,
    label: t.label,
    active: t.deactivatedAt === null,
    createdAt: t.createdAt.toISOString(),
    lastUsedAt: t.lastUsedAt?.toISOString() ?? null,
    deactivatedAt: t.deactivatedAt?.toISOString() ?? null,
  }));
}
