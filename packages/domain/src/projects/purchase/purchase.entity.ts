import type { z } from 'zod';
import { organization } from '../../crm/organization/organization.entity.js';
import { person } from '../../crm/person/person.entity.js';
import { defineEntity, f, type TargetEntity } from '../../shared/entity/index.js';
import { organizationSimple, personSimple } from '../../shared/relation-shapes.js';
import { project } from '../project/project.entity.js';
import { projectReference } from '../project/project.shapes.js';
import { targets } from '../../shared/entity/targets.js';

/** A purchase invoice booked on a project (read-only). */
export const purchase = defineEntity({
  type: 'purchase',
  table: 'purchase',
  module: 'projects',
  fields: {
    id: f.id(),
    organizationId: f.string({ references: () => targets.organization }),
    personId: f.string({ references: () => targets.person }),
    organization: f.ref((): TargetEntity => organization, organizationSimple, {
      column: 'organization_id',
      restricted: true,
      writable: false,
    }),
    person: f.ref((): TargetEntity => person, personSimple, { column: 'person_id', restricted: true, writable: false }),
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
