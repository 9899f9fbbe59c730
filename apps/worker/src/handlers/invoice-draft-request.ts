import { invoiceDraftRequestJob, runInvoiceDraftRequest } from '@bo/domain';
import { jobHandler } from '../handlers.js';

/** Drafts the invoices of an invoiceDraftRequest.create; the work and its progress live in the domain. */
export const invoiceDraftRequestHandler = jobHandler(
  invoiceDraftRequestJob,
  { retryLimit: 3, expireInSeconds: 30 * 60, pollingIntervalSeconds: 1 },
  (job, ctx) => runInvoiceDraftRequest(ctx, job.data),
);
