import { adminRouter } from './admin/router.js';
import { authRouter } from './auth/router.js';
import { crmResources, crmRouter } from './crm/router.js';
import { customFieldResources, customfieldsRouter } from './customfields/router.js';
import type { AnyResource } from './shared/resources/definition.js';
import { createCallerFactory, router } from './trpc.js';

export const appRouter = router({
  admin: adminRouter,
  auth: authRouter,
  crm: crmRouter,
  customfields: customfieldsRouter,
});

export type AppRouter = typeof appRouter;

/** Every declared resource; v2 routes are made from this list. */
export const resources: AnyResource[] = [...crmResources, ...customFieldResources];

export const createCaller = createCallerFactory(appRouter);
