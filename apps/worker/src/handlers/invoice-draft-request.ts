import { INVOICE_DRAFT_REQUEST_JOB, runInvoiceDraftRequest } from '@bo/domain';
import type { JobHandler } from '../handlers.js';

/** Drafts the invoices of an invoiceDraftRequest.create; the work and its progress live in the domain. */
export const invoiceDraftRequestHandler: JobHandler = {
  name: INVOICE_DRAFT_REQUEST_JOB,
  retryLimit: 3,
  expireInSeconds: 30 * 60,
  pollingIntervalSeconds: 1,
  handle: (job, ctx) => runInvoiceDraftRequest(ctx, job.data),
};
