import { z } from 'zod';

export const INVOICE_DRAFT_REQUEST_JOB = 'invoice-draft-request';

/** A request to draft invoices for the chosen projects, in domain terms. */
export const createInvoiceDraftRequestInput = z.object({
  projectIds: z
    .array(z.string().min(1).max(200))
    .min(1, 'Choose at least one project.')
    .max(100, 'At most 100 projects per request.'),
  invoiceDate: z.date().optional(),
});
export type CreateInvoiceDraftRequestInput = z.infer<typeof createInvoiceDraftRequestInput>;

export type InvoiceDraftRequestState = 'queued' | 'running' | 'done' | 'failed';
export type InvoiceDraftProjectState = 'pending' | 'drafted' | 'skipped' | 'failed';

/** The request's own status and its progress per project. */
export interface InvoiceDraftRequest {
  id: string;
  status: InvoiceDraftRequestState;
  /** a calendar date, `YYYY-MM-DD` */
  invoiceDate: string | null;
  projects: { total: number; pending: number; drafted: number; skipped: number; failed: number };
  items: { projectId: string; status: InvoiceDraftProjectState; invoiceId: string | null; message: string | null }[];
  createdAt: Date;
  updatedAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
}
