import type { Models, SqlModel } from '@bo/db';
import { v2Date, v2DateTime, v3DateTime } from '../../shared/format.js';
import { num } from '../../shared/numbers.js';
import type { ResourceDefinition } from '../../shared/resources/definition.js';

export const purchaseSql: SqlModel = {
  table: 'purchase',
  fields: {
    id: { column: 'id', type: 'id' },
    supplier: { column: 'supplier', type: 'string' },
    invoice_number: { column: 'invoice_number', type: 'string' },
    type: { column: 'type', type: 'string' },
    invoice_date: { column: 'invoice_date', type: 'date' },
    invoice_amount: { column: 'invoice_amount', type: 'number' },
    project_id: { column: 'project_id', type: 'id' },
    created_at: { column: 'created_at', type: 'datetime' },
    updated_at: { column: 'updated_at', type: 'datetime' },
  },
};

type PurchaseRow = Models.PurchaseModel & { project: Models.ProjectModel | null };

/** v2 projects/purchase, read-only as in the reference; invoice_date and invoice_amount in list and single reads (2026-05). */
export const purchaseResource: ResourceDefinition<PurchaseRow> = {
  name: 'projects/purchase',
  entityType: 'purchase',
  module: 'projects',
  sql: purchaseSql,
  defaultSort: [{ path: 'created_at', dir: 'asc' }],
  async load(db, ids) {
    const rows = await db.purchase.findMany({ where: { id: { in: ids } } });
    const projectIds = [...new Set(rows.map((r) => r.projectId).filter((p): p is string => p !== null))];
    const projects = new Map((await db.project.findMany({ where: { id: { in: projectIds } } })).map((p) => [p.id, p]));
    return rows.map((r) => ({ ...r, project: r.projectId ? (projects.get(r.projectId) ?? null) : null }));
  },
  views: {
    v2: (p) => ({
      id: p.id,
      organization: p.organizationId ? { id: p.organizationId } : null,
      person: p.personId ? { id: p.personId } : null,
      supplier: p.supplier,
      invoice_number: p.invoiceNumber,
      type: p.type,
      projects: p.project ? [{ id: p.project.id, name: p.project.name, project_number: p.project.projectNumber }] : [],
      invoice_date: v2Date(p.invoiceDate),
      invoice_amount: num(p.invoiceAmount),
      created_at: v2DateTime(p.createdAt),
      updated_at: v2DateTime(p.updatedAt),
    }),
    v3: (p) => ({
      id: p.id,
      supplier: p.supplier,
      invoiceNumber: p.invoiceNumber,
      type: p.type,
      projectId: p.projectId,
      invoiceDate: p.invoiceDate ? p.invoiceDate.toISOString().slice(0, 10) : null,
      invoiceAmount: num(p.invoiceAmount),
      createdAt: v3DateTime(p.createdAt),
      updatedAt: v3DateTime(p.updatedAt),
    }),
  },
  remove: false,
};
