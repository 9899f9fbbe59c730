import { z } from 'zod';
import { hashSecret, newTokenCredentials } from '../auth/token-secret.js';
import type { DomainContext } from '../shared/context.js';
import { newEntityId } from '../shared/ids.js';
import { environmentByName, userByEmail } from './environment-lookup.js';

export const createTokenInput = z.object({
  environment: z.string(),
  user: z.string(),
  label: z.string().optional(),
});

export const createdTokenSchema = z.object({ id: z.string(), key: z.string(), secret: z.string() });

/** The secret is returned this once; only its hash is stored. */
export async function createToken(
  ctx: DomainContext,
  input: z.infer<typeof createTokenInput>,
): Promise<z.infer<typeof createdTokenSchema>> {
  const env = await environmentByName(ctx, input.environment);
  const user = await userByEmail(ctx, env.id, input.user);
  const { key, secret } = newTokenCredentials();
  const token = await ctx.prisma.apiToken.create({
    data: {
      id: newEntityId('token'),
      environmentId: env.id,
      userId: user.id,
      key,
      secretHash: hashSecret(secret),
      label: input.label ?? null,
    },
  });
  return { id: token.id, key, secret };
}
