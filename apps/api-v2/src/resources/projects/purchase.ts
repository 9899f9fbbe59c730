import { type Purchase, purchase } from '@bo/domain/projects/purchase/purchase.entity';
import { v2DateTime, v2Names } from '../v2-names.js';
import { v2Resource } from '../v2-resource.js';

/** projects/purchase, read-only as in the reference. */
export const purchaseV2 = v2Resource<Purchase>({
  path: 'projects/purchase',
  entity: purchase,
  procedures: (c) => c.projects.purchase,
  names: v2Names(),
  read: (p) => ({
    id: p.id,
    organization: p.organizationId ? { id: p.organizationId } : null,
    person: p.personId ? { id: p.personId } : null,
    supplier: p.supplier,
    invoice_number: p.invoiceNumber,
    type: p.type,
    projects: p.project ? [{ id: p.project.id, name: p.project.name, project_number: p.project.projectNumber }] : [],
    invoice_date: p.invoiceDate,
    invoice_amount: p.invoiceAmount,
    created_at: v2DateTime(p.createdAt),
    updated_at: v2DateTime(p.updatedAt),
  }),
});
