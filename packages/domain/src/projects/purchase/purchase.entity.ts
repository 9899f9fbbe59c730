import type { z } from 'zod';
import { defineEntity, f, type TargetEntity } from '../../shared/entity/index.js';
import { project } from '../project/project.entity.js';
import { projectReference } from '../project/project.shapes.js';

/** A purchase invoice booked on a project (read-only). */
export const purchase = defineEntity({
  type: 'purchase',
  table: 'purchase',
  module: 'projects',
  fields: {
    id: f.id(),
    organizationId: f.string(),
    personId: f.string(),
    supplier: f.string(),
    invoiceNumber: f.string(),
    type: f.requiredString(),
    /** invoice_date and invoice_amount in list and single reads (2026-05) */
    invoiceDate: f.date(),
    invoiceAmount: f.decimal(),
    project: f.ref((): TargetEntity => project, projectReference, { column: 'project_id', writable: false }),
    createdAt: f.createdAt(),
    updatedAt: f.updatedAt(),
  },
});
export type Purchase = z.infer<typeof purchase.schema>;
