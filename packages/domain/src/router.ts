import { adminRouter } from './admin/router.js';
import { authRouter } from './auth/router.js';
import { changesRouter } from './changes/router.js';
import { crmRouter } from './crm/router.js';
import { costsRouter } from './costs/router.js';
import { hoursRouter } from './hours/router.js';
import { hrmRouter } from './hrm/router.js';
import { invoicesRouter } from './invoices/router.js';
import { projectsRouter } from './projects/router.js';
import { servicesRouter } from './services/router.js';
import { documentsRouter } from './documents/router.js';
import { timelineRouter } from './timeline/router.js';
import { uploadsRouter } from './uploads/router.js';
import { webhooksRouter } from './webhooks/router.js';
import { customfieldsRouter } from './customfields/router.js';
import { salesRouter } from './sales/router.js';
import { workflowsRouter } from './workflows/workflow.router.js';
import { sharedRouter } from './items/router.js';
import { storageRouter } from './storage/router.js';
import { mileageRouter } from './mileage/router.js';
import { timersRouter } from './timers/router.js';
import { createCallerFactory, router, withDirectQueries } from './trpc.js';

export const appRouter = router({
  admin: adminRouter,
  auth: authRouter,
  crm: crmRouter,
  projects: projectsRouter,
  services: servicesRouter,
  hours: hoursRouter,
  costs: costsRouter,
  hrm: hrmRouter,
  invoices: invoicesRouter,
  documents: documentsRouter,
  timeline: timelineRouter,
  upload: uploadsRouter,
  webhooks: webhooksRouter,
  customfields: customfieldsRouter,
  sales: salesRouter,
  workflows: workflowsRouter,
  shared: sharedRouter,
  storage: storageRouter,
  mileage: mileageRouter,
  timers: timersRouter,
  changes: changesRouter,
});

export type AppRouter = typeof appRouter;

/** in-process callers (the doors, the jobs, the tests): a user's query runs directly (trpc.ts, directQueryOf) */
export const createCaller = withDirectQueries(appRouter, createCallerFactory(appRouter));
