import { z } from 'zod';
import { project as projectEntity } from '../../projects/project/project.entity.js';
import { defineEntity, embeddedRowSql, f, type TargetEntity } from '../../shared/entity/index.js';
import { projectSimple } from '../../shared/relation-shapes.js';
import { invoice } from '../invoice/invoice.entity.js';
import { targets } from '../../shared/entity/targets.js';

/**
 * projects/reverseinvoice: the installments of the projects' fixed-price services as
 * invoice terms: open (not on an invoice), concept (on a draft) or invoiced (sent).
 */
export const reverseInvoice = defineEntity({
  type: 'reverseinvoice',
  table: 'project_service_installment',
  module: 'projects',
  defaultSort: [{ path: 'position', dir: 'asc' }],
  fields: {
    id: f.id(),
    projectServiceId: f.requiredString(),
    name: f.requiredString(),
    expirationDate: f.date(),
    invoiceId: f.string({ references: () => targets.invoice }),
    position: f.requiredInteger(),
    status: f.computed(
      'string',
      z.enum(['open', 'concept', 'invoiced']),
      (t) => `CASE WHEN ${t}.invoice_id IS NULL THEN 'open'
        WHEN (SELECT i.status FROM invoice i WHERE i.id = ${t}.invoice_id AND i.environment_id = ${t}.environment_id) = 'draft' THEN 'concept'
        ELSE 'invoiced' END`,
    ),
    price: f.computed(
      'string',
      z.string(),
      (t) => `(SELECT round(COALESCE(${t}.price, ${t}.percentage * COALESCE(s.price, 0) * COALESCE(s.amount, 1) / 100), 2)::text
        FROM project_service s WHERE s.id = ${t}.project_service_id AND s.environment_id = ${t}.environment_id)`,
    ),
    project: f.computed('json', projectSimple.nullable(), (t) =>
      embeddedRowSql(
        projectEntity,
        projectSimple,
        `(SELECT s.project_id FROM project_service s WHERE s.id = ${t}.project_service_id AND s.environment_id = ${t}.environment_id)`,
        `${t}.environment_id`,
      ),
    ),
    /** the invoice of the term: a relation into the invoices module, so without the invoices right it shows as {id, name} */
    invoice: f.ref(
      (): TargetEntity => invoice,
      z.object({ id: z.string(), invoiceNumber: z.string().nullable(), invoiceDate: z.string().nullable(), status: z.string() }),
      { column: 'invoice_id', restricted: true, filter: false },
    ),
  },
});
export type ReverseInvoice = z.infer<typeof reverseInvoice.schema>;
