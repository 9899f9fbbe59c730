import type { PrismaClient } from '@bo/db';
import { ALL_RIGHTS, createCaller, systemClock } from '@bo/domain';
import { demoOrganizations } from './fixtures/organizations.js';

export interface DemoAccess {
  environment: string;
  user: string;
  /** the token made on the first start (its secret is shown only then); null on every later start */
  token: { key: string; secret: string } | null;
}

export const DEMO_ENVIRONMENT = 'demo';
export const DEMO_USER = 'admin@demo.local';

/**
 * On an empty database: environment `demo`, its admin user with every right,
 * and a handful of organizations, all made through the same procedures the APIs
 * call, and one token whose secret is printed once. A later start makes nothing: no
 * new all-rights token piles up at each restart (the banner says how to make one).
 */
export async function seedDemoIfEmpty(prisma: PrismaClient): Promise<DemoAccess | null> {
  const system = createCaller({ prisma, principal: { kind: 'system' }, clock: systemClock });
  const environments = await prisma.environment.count();
  if (environments === 0) {
    await system.admin.environment.create({ name: DEMO_ENVIRONMENT });
    await system.admin.user.create({ environment: DEMO_ENVIRONMENT, email: DEMO_USER, name: 'Demo admin', rights: ALL_RIGHTS });
    const first = await system.admin.token.create({ environment: DEMO_ENVIRONMENT, user: DEMO_USER, label: 'demo' });
    const principal = await system.auth.authenticate({ environment: DEMO_ENVIRONMENT, key: first.key, secret: first.secret });
    const user = createCaller({ prisma, principal, clock: systemClock });
    for (const data of demoOrganizations) await user.crm.organization.create({ data });
    return { environment: DEMO_ENVIRONMENT, user: DEMO_USER, token: { key: first.key, secret: first.secret } };
  }
  const demo = await prisma.environment.findUnique({ where: { name: DEMO_ENVIRONMENT } });
  if (!demo) return null;
  return { environment: DEMO_ENVIRONMENT, user: DEMO_USER, token: null };
}
