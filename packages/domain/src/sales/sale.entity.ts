import { paymentTerm } from '../invoices/lookups/invoice-lookups.entity.js';
import { z } from 'zod';
import { organization } from '../crm/organization/organization.entity.js';
import { person } from '../crm/person/person.entity.js';
import { customFieldValueSchema } from '../customfields/custom-field-value.schema.js';
import { employee, employeeReference } from '../hrm/employee/employee.entity.js';
import { contactPerson } from '../crm/contactperson/contactperson.entity.js';
import { defineEntity, f, type TargetEntity } from '../shared/entity/index.js';
import { contactSimple, timelineEmailAddressSql } from '../shared/relation-shapes.js';
import { salesProgress, salesReason, salesSource, salesStatus } from './lookups/lookups.entity.js';
import { linkedProjectOrder, linkedProjectShape, projectExists, saleProject } from './linked-project.entity.js';
import { targets } from '../shared/entity/targets.js';

/** A sale (an opportunity) for an organization or a person. */
export const sale = defineEntity({
  type: 'sale',
  table: 'sale',
  module: 'sales',
  nameField: 'subject',
  fields: {
    id: f.id(),
    subject: f.requiredString(),
    organization: f.ref(
      (): TargetEntity => organization,
      z.object({ id: z.string(), name: z.string(), relationNumber: z.string().nullable() }),
      { column: 'organization_id', restricted: true },
    ),
    person: f.ref(
      (): TargetEntity => person,
      z.object({ id: z.string(), fullName: z.string().nullable(), relationNumber: z.string().nullable() }),
      { column: 'person_id', restricted: true },
    ),
    /** a contact person of the sale's organization */
    contactId: f.string({ references: () => targets.contactPerson }),
    /** the contact person, in the one contact shape (GetContactSimple) */
    contact: f.ref((): TargetEntity => contactPerson, contactSimple, { column: 'contact_id', restricted: true, writable: false }),
    myOrganizationProfileId: f.string({ references: () => targets.myOrganizationProfile }),
    responsibleEmployee: f.ref((): TargetEntity => employee, employeeReference, {
      column: 'responsible_employee_id',
      restricted: true,
    }),
    startDate: f.date(),
    expectedClosingDate: f.date(),
    expectedRevenue: f.decimal(),
    chanceToScore: f.integer(),
    note: f.string(),
    /** status and progress come from the lookups (sales/salesstatus, sales/salesprogress) */
    status: f.ref((): TargetEntity => salesStatus, z.object({ id: z.string(), label: z.string() }), { column: 'status_id' }),
    statusUpdatedAt: f.datetime(),
    progress: f.ref(
      (): TargetEntity => salesProgress,
      z.object({
        id: z.string(),
        label: z.string(),
        color: z.string().nullable(),
        chanceToScore: z.number().nullable(),
        position: z.number(),
      }),
      { column: 'progress_id' },
    ),
    source: f.ref((): TargetEntity => salesSource, z.object({ id: z.string(), name: z.string() }), { column: 'source_id' }),
    /** why the sale was won or lost; a blocked reason cannot be chosen (2023-06) */
    reason: f.ref((): TargetEntity => salesReason, z.object({ id: z.string(), name: z.string(), blocked: z.boolean() }), {
      column: 'reason_id',
    }),
    /** a plain id (2026-03): payment terms are not kept by this service */
    /** a payment term of the environment (2026-03): the sale's quotes and invoices use it */
    divergentPaymentTermId: f.string({ references: (): TargetEntity => paymentTerm }),
    /** the projects linked to the sale, in the order they were linked (2025-12, 2026-01, 2026-02) */
    linkedProjects: f.many(
      (): TargetEntity => saleProject,
      z.object({ id: z.string(), project: linkedProjectShape.nullable() }),
      { remote: 'sale_id', where: projectExists, orderBy: linkedProjectOrder },
    ),
    customFields: f.customFields('sale', customFieldValueSchema),
    /** the address that files mail into this record's timeline (shared/relation-shapes.ts) */
    timelineEmailAddress: f.computed('string', z.string(), timelineEmailAddressSql, { filter: false, sort: false }),
    createdAt: f.createdAt(),
    updatedAt: f.updatedAt(),
  },
  // a sale's events carry its custom fields as name and value
  eventData: (s) => ({ ...s, customFields: s.customFields.map((c) => ({ name: c.name, value: c.value })) }),
});

export type Sale = z.infer<typeof sale.schema>;
