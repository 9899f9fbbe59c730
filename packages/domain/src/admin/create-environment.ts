import { placementOf } from '@bo/db';
import { z } from 'zod';
import type { DomainContext } from '../shared/context.js';
import { scopedDb } from '../shared/context.js';
import { ConflictError } from '../shared/errors.js';
import { newEntityId } from '../shared/ids.js';
import { environmentSeeders } from '../seeders.js';

export const createEnvironmentInput = z.object({
  name: z.string().regex(/^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/, 'an environment name is a DNS label: a-z, 0-9 and -'),
});

export const createdEnvironmentSchema = z.object({ id: z.string(), name: z.string() });

export async function createEnvironment(
  ctx: DomainContext,
  input: z.infer<typeof createEnvironmentInput>,
): Promise<z.infer<typeof createdEnvironmentSchema>> {
  const existing = await ctx.prisma.environment.findUnique({ where: { name: input.name } });
  if (existing) throw new ConflictError(`environment ${input.name} exists already`);
  // on several clusters (DATABASE_URLS) the new environment goes to the least loaded one (placement.ts);
  // placed before its name exists, so that no request finds it without its placement
  const placement = placementOf(ctx.prisma);
  const id = newEntityId('environment');
  const cluster = placement ? await placement.chooseForNew() : null;
  if (placement && cluster) await placement.set(id, cluster.index, false);
  const env = await ctx.prisma.environment.create({ data: { id, name: input.name } });
  // a copy of the row on its own cluster, for the joins of that cluster's worker (a delivery names its environment)
  if (cluster && cluster.index !== 0) await cluster.prisma.environment.create({ data: { id, name: input.name } });
  const db = scopedDb(cluster?.prisma ?? ctx.prisma, env.id);
  for (const seed of environmentSeeders) await seed(db);
  return { id: env.id, name: env.name };
}
