import type { DomainContext } from '../shared/context.js';
import { NotFoundError } from '../shared/errors.js';

export async function environmentByName(ctx: DomainContext, name: string) {
  const env = await ctx.prisma.environment.findUnique({ where: { name } });
  if (!env) throw new NotFoundError('environment', name);
  return env;
}

export async function userByEmail(ctx: DomainContext, environmentId: string, email: string) {
  const user = await ctx.prisma.user.findUnique({ where: { environmentId_email: { environmentId, email } } });
  if (!user) throw new NotFoundError('user', email);
  return user;
}
