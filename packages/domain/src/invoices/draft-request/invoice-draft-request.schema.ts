import { z } from 'zod';

export const INVOICE_DRAFT_REQUEST_JOB = 'invoice-draft-request';

/** v3 request of invoiceDraftRequest.create. */
export const CreateInvoiceDraftRequest = z
  .object({
    projectIds: z
      .array(z.string().min(1).max(200))
      .min(1, 'Choose at least one project.')
      .max(100, 'At most 100 projects per request.'),
    invoiceDate: z.iso
      .date()
      .transform((s) => new Date(`${s}T00:00:00.000Z`))
      .optional(),
  })
  .strict();

const count = z.number().int().min(0);

/** v3 Invoice.Draft.Request.Status: the request's own status and its progress per project. */
export const InvoiceDraftRequestStatus = z.object({
  id: z.string(),
  status: z.enum(['queued', 'running', 'done', 'failed']),
  invoiceDate: z.iso.date().nullable(),
  projects: z.object({ total: count, pending: count, drafted: count, skipped: count, failed: count }),
  items: z.array(
    z.object({
      projectId: z.string(),
      status: z.enum(['pending', 'drafted', 'skipped', 'failed']),
      invoiceId: z.string().nullable(),
      message: z.string().nullable(),
    }),
  ),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
  startedAt: z.iso.datetime().nullable(),
  finishedAt: z.iso.datetime().nullable(),
});
export type InvoiceDraftRequestStatusOutput = z.infer<typeof InvoiceDraftRequestStatus>;
