import { z } from 'zod';
import type { DomainContext } from '../shared/context.js';
import { NotFoundError } from '../shared/errors.js';
import { environmentByName } from './environment-lookup.js';

export const deleteTokenInput = z.object({ environment: z.string(), key: z.string() });

export const deletedTokenSchema = z.object({ id: z.string(), key: z.string(), active: z.literal(false) });

/** Deleting a token deactivates it for good; the row stays for the audit trail. */
export async function deleteToken(
  ctx: DomainContext,
  input: z.infer<typeof deleteTokenInput>,
): Promise<z.infer<typeof deletedTokenSchema>> {
  const env = await environmentByName(ctx, input.environment);
  const token = await ctx.prisma.apiToken.findFirst({ where: { environmentId: env.id, key: input.key } });
  if (!token) throw new NotFoundError('token', input.key);
  if (!token.deactivatedAt) {
    await ctx.prisma.apiToken.update({ where: { id: token.id }, data: { deactivatedAt: ctx.clock.now() } });
  }
  return { id: token.id, key: token.key, active: false as const };
}
