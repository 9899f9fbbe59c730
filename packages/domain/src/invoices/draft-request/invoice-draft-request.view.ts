import type { Models } from '@bo/db';
import type { EntityTransaction as Db } from '../../shared/entity/index.js';
import type { InvoiceDraftProjectState, InvoiceDraftRequest, InvoiceDraftRequestState } from './invoice-draft-request.schema.js';

type Row = Models.InvoiceDraftRequestModel & { projects: Models.InvoiceDraftRequestProjectModel[] };

export function loadInvoiceDraftRequest(db: Db, id: string): Promise<Row | null> {
  return db.invoiceDraftRequest.findFirst({ where: { id }, include: { projects: { orderBy: { position: 'asc' } } } });
}

export function invoiceDraftRequestOf(r: Row): InvoiceDraftRequest {
  const counts = { total: r.projects.length, pending: 0, drafted: 0, skipped: 0, failed: 0 };
  for (const p of r.projects) counts[p.status as InvoiceDraftProjectState] += 1;
  return {
    id: r.id,
    status: r.status as InvoiceDraftRequestState,
    invoiceDate: r.invoiceDate ? r.invoiceDate.toISOString().slice(0, 10) : null,
    projects: counts,
    items: r.projects.map((p) => ({
      projectId: p.projectId,
      status: p.status as InvoiceDraftProjectState,
      invoiceId: p.invoiceId,
      message: p.message,
    })),
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    startedAt: r.startedAt,
    finishedAt: r.finishedAt,
  };
}
