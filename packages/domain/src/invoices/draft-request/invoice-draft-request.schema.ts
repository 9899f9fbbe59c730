import { z } from 'zod';
import { defineJob } from '../../shared/jobs.js';

/** The job behind invoiceDraftRequest.create: drafts the request's invoices in the worker. */
export const invoiceDraftRequestJob = defineJob({
  name: 'invoice-draft-request',
  version: 1,
  payload: z.object({ environmentId: z.string().min(1), requestId: z.string().min(1) }),
});
export type InvoiceDraftJobData = z.output<typeof invoiceDraftRequestJob.payload>;

/** A request to draft invoices for the chosen projects, in domain terms. */
export const createInvoiceDraftRequestInput = z.object({
  projectIds: z
    .array(z.string().min(1).max(200))
    .min(1, 'Choose at least one project.')
    .max(100, 'At most 100 projects per request.'),
  invoiceDate: z.date().optional(),
});
export type CreateInvoiceDraftRequestInput = z.infer<typeof createInvoiceDraftRequestInput>;

export const INVOICE_DRAFT_REQUEST_STATES = ['queued', 'running', 'done', 'failed'] as const;
export type InvoiceDraftRequestState = (typeof INVOICE_DRAFT_REQUEST_STATES)[number];
export const INVOICE_DRAFT_PROJECT_STATES = ['pending', 'drafted', 'skipped', 'failed'] as const;
export type InvoiceDraftProjectState = (typeof INVOICE_DRAFT_PROJECT_STATES)[number];

const count = z.number().int();

/** The request's own status and its progress per project. */
export const invoiceDraftRequestSchema = z.object({
  id: z.string(),
  status: z.enum(INVOICE_DRAFT_REQUEST_STATES),
  /** a calendar date, `YYYY-MM-DD` */
  invoiceDate: z.string().nullable(),
  projects: z.object({ total: count, pending: count, drafted: count, skipped: count, failed: count }),
  items: z.array(
    z.object({
      projectId: z.string(),
      status: z.enum(INVOICE_DRAFT_PROJECT_STATES),
      invoiceId: z.string().nullable(),
      message: z.string().nullable(),
    }),
  ),
  createdAt: z.date(),
  updatedAt: z.date(),
  startedAt: z.date().nullable(),
  finishedAt: z.date().nullable(),
});
export type InvoiceDraftRequest = z.infer<typeof invoiceDraftRequestSchema>;
