import { type Purchase, purchase } from '@bo/domain/projects/purchase/purchase.entity';
import { organizationSimpleV2, personSimpleV2, projectSimpleV2 } from '../shared/simple.js';
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
    organization: organizationSimpleV2(p.organization),
    person: personSimpleV2(p.person),
    supplier: p.supplier,
    invoice_number: p.invoiceNumber,
    type: p.type,
    projects: p.project ? [projectSimpleV2(p.project)] : [],
    invoice_date: p.invoiceDate,
    invoice_amount: p.invoiceAmount,
    created_at: v2DateTime(p.createdAt),
    updated_at: v2DateTime(p.updatedAt),
  }),
});
