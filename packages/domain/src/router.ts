import { adminRouter } from './admin/router.js';
import { authRouter } from './auth/router.js';
import { crmResources, crmRouter } from './crm/router.js';
import { documentsResources, documentsRouter, invoiceDocumentResources, invoiceDocumentRouter } from './documents/router.js';
import { timelineResources, timelineRouter } from './timeline/router.js';
import { uploadsRouter } from './uploads/router.js';
import { webhooksRouter } from './webhooks/router.js';
import type { AnyResource } from './shared/resources/definition.js';
import { createCallerFactory, router } from './trpc.js';

export const appRouter = router({
  admin: adminRouter,
  auth: authRouter,
  crm: crmRouter,
  documents: documentsRouter,
  invoices: router({ document: invoiceDocumentRouter }),
  timeline: timelineRouter,
  upload: uploadsRouter,
  webhooks: webhooksRouter,
});

export type AppRouter = typeof appRouter;

/** Every declared resource; v2 routes are made from this list. */
export const resources: AnyResource[] = [
  ...crmResources,
  ...documentsResources,
  ...invoiceDocumentResources,
  ...timelineResources,
];

export const createCaller = createCallerFactory(appRouter);
