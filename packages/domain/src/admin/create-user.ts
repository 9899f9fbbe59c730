import { z } from 'zod';
import type { DomainContext } from '../shared/context.js';
import { ConflictError } from '../shared/errors.js';
import { newEntityId } from '../shared/ids.js';
import { rightsSchema } from '../shared/rights.js';
import { environmentByName } from './environment-lookup.js';

export const createUserInput = z.object({
  environment: z.string(),
  email: z.email(),
  name: z.string().min(1).optional(),
  rights: rightsSchema,
});

export const createdUserSchema = z.object({ id: z.string(), email: z.string(), rights: rightsSchema });

export async function createUser(
  ctx: DomainContext,
  input: z.infer<typeof createUserInput>,
): Promise<z.infer<typeof createdUserSchema>> {
  const env = await environmentByName(ctx, input.environment);
  const exists = await ctx.prisma.user.findUnique({
    where: { environmentId_email: { environmentId: env.id, email: input.email } },
  });
  if (exists) throw new ConflictError(`user ${input.email} exists already in ${input.environment}`);
  const user = await ctx.prisma.user.create({
    data: {
      id: newEntityId('user'),
      environmentId: env.id,
      email: input.email,
      name: input.name ?? input.email,
      rights: input.rights,
    },
  });
  return { id: user.id, email: user.email, rights: input.rights };
}
