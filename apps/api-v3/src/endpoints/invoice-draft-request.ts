import type { InvoiceDraftRequest } from '@bo/domain/invoices/draft-request/invoice-draft-request.schema';
import { z } from 'zod';
import { commandEndpoint, type NamedSchema, queryEndpoint } from './types.js';

/** v3 request of invoiceDraftRequest.create. */
const CreateInvoiceDraftRequest = z
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
const InvoiceDraftRequestStatus = z.object({
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

const status: NamedSchema = { name: 'Invoice.Draft.Request.Status', schema: InvoiceDraftRequestStatus };

export function invoiceDraftRequestV3(r: InvoiceDraftRequest): z.infer<typeof InvoiceDraftRequestStatus> {
  return {
    id: r.id,
    status: r.status,
    invoiceDate: r.invoiceDate,
    projects: r.projects,
    items: r.items,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
    startedAt: r.startedAt ? r.startedAt.toISOString() : null,
    finishedAt: r.finishedAt ? r.finishedAt.toISOString() : null,
  };
}

/** Invoice draft requests (issue 4). */
export const invoiceDraftRequestEndpoints = {
  'invoiceDraftRequest.create': commandEndpoint({
    call: (c) => c.invoices.invoiceDraftRequest.create,
    mapInput: (body: z.output<typeof CreateInvoiceDraftRequest>) => ({
      projectIds: body.projectIds,
      ...(body.invoiceDate ? { invoiceDate: body.invoiceDate } : {}),
    }),
    map: invoiceDraftRequestV3,
    status: 201,
    doc: {
      summary: 'Asks the worker to draft invoices for the chosen projects',
      request: { name: 'Invoice.Draft.Request.Create', schema: CreateInvoiceDraftRequest },
      response: status,
      errors: [400, 403, 422],
    },
  }),
  'invoiceDraftRequest.get': queryEndpoint({
    call: (c) => c.invoices.invoiceDraftRequest.get,
    withId: true,
    mapInput: (id) => ({ id: id as string }),
    map: invoiceDraftRequestV3,
    doc: {
      summary: 'Status of an invoice draft request and its project progress counts',
      response: status,
      errors: [403, 404],
    },
  }),
};
