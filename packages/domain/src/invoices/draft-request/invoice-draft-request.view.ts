import type { Models } from '@bo/db';
import { v3DateTime } from '../../shared/format.js';
import type { Db } from '../../shared/resources/definition.js';
import type { InvoiceDraftRequestStatusOutput } from './invoice-draft-request.schema.js';

type Row = Models.InvoiceDraftRequestModel & { projects: Models.InvoiceDraftRequestProjectModel[] };

export function loadInvoiceDraftRequest(db: Db, id: string): Promise<Row | null> {
  return db.invoiceDraftRequest.findFirst({ where: { id }, include: { projects: { orderBy: { position: 'asc' } } } });
}

export function invoiceDraftRequestStatus(r: Row): InvoiceDraftRequestStatusOutput {
  const counts = { total: r.projects.length, pending: 0, drafted: 0, skipped: 0, failed: 0 };
  for (const p of r.projects) counts[p.status as 'pending' | 'drafted' | 'skipped' | 'failed'] += 1;
  return {
    id: r.id,
    status: r.status as InvoiceDraftRequestStatusOutput['status'],
    invoiceDate: r.invoiceDate ? r.invoiceDate.toISOString().slice(0, 10) : null,
    projects: counts,
    items: r.projects.map((p) => ({
      projectId: p.projectId,
      status: p.status as InvoiceDraftRequestStatusOutput['items'][number]['status'],
      invoiceId: p.invoiceId,
      message: p.message,
    })),
    createdAt: v3DateTime(r.createdAt) as string,
    updatedAt: v3DateTime(r.updatedAt) as string,
    startedAt: v3DateTime(r.startedAt),
    finishedAt: v3DateTime(r.finishedAt),
  };
}
