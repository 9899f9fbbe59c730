import { z } from 'zod';
import { defineEntity, f, type ReferenceCheck, type TargetEntity } from '../shared/entity/index.js';
import type { ModuleName } from '../shared/rights.js';

/**
 * `linkedTo` of documents, external documents and timeline messages: the one
 * entity a record belongs to. Stored as plain columns (linked_<type>_id); the
 * entities' tables belong to other modules, so existence is checked by table.
 */
const target = (type: string, table: string, module: ModuleName): TargetEntity => ({ type, table, module, fields: {} });

export const LINK_KEYS = {
  personId: { column: 'linked_person_id', type: 'person', target: target('person', 'person', 'crm') },
  organizationId: {
    column: 'linked_organization_id',
    type: 'organization',
    target: target('organization', 'organization', 'crm'),
  },
  saleId: { column: 'linked_sale_id', type: 'sale', target: target('sale', 'sale', 'sales') },
  projectId: { column: 'linked_project_id', type: 'project', target: target('project', 'project', 'projects') },
  invoiceId: { column: 'linked_invoice_id', type: 'invoice', target: target('invoice', 'invoice', 'invoices') },
  employeeId: { column: 'linked_employee_id', type: 'employee', target: target('employee', 'employee', 'hrm') },
} as const;
export type LinkKey = keyof typeof LINK_KEYS;
export const LINK_KEY_NAMES = Object.keys(LINK_KEYS) as LinkKey[];

/** The link of a record: at most one of the ids is set. */
export const linkShape = z.object({
  personId: z.string().nullable(),
  organizationId: z.string().nullable(),
  saleId: z.string().nullable(),
  projectId: z.string().nullable(),
  invoiceId: z.string().nullable(),
  employeeId: z.string().nullable(),
});
export type Link = z.infer<typeof linkShape>;

/**
 * The link columns of a table as an entity of their own, so that a record's
 * `linkedTo` reads as one object and filters as `linkedTo.invoiceId`.
 */
export function linkEntity(table: string, module: ModuleName) {
  return defineEntity({
    type: `${table}_link`,
    table,
    module,
    fields: {
      id: f.id(),
      personId: f.string({ column: LINK_KEYS.personId.column, references: () => LINK_KEYS.personId.target }),
      organizationId: f.string({ column: LINK_KEYS.organizationId.column, references: () => LINK_KEYS.organizationId.target }),
      saleId: f.string({ column: LINK_KEYS.saleId.column, references: () => LINK_KEYS.saleId.target }),
      projectId: f.string({ column: LINK_KEYS.projectId.column, references: () => LINK_KEYS.projectId.target }),
      invoiceId: f.string({ column: LINK_KEYS.invoiceId.column, references: () => LINK_KEYS.invoiceId.target }),
      employeeId: f.string({ column: LINK_KEYS.employeeId.column, references: () => LINK_KEYS.employeeId.target }),
    },
  });
}

/** The `linkedTo` field of a record over its own table's link columns. */
export function linkedToField(table: string, module: ModuleName) {
  const links = linkEntity(table, module);
  return f.one(() => links, linkShape, { remote: 'id', writable: false });
}

const linkObject = z
  .strictObject(
    Object.fromEntries(LINK_KEY_NAMES.map((k) => [k, z.string().min(1).nullable().optional()])) as Record<
      LinkKey,
      z.ZodOptional<z.ZodNullable<z.ZodString>>
    >,
  )
  .refine((o) => LINK_KEY_NAMES.filter((k) => o[k]).length === 1, {
    // the message names the keys as clients of the reference send them
    message: 'name exactly one of person_id, organization_id, sales_id, project_id, invoice_id, employee_id',
  });

/** An object with one key; the array form of one such object is accepted too. */
export const linkedToInput = z.union([linkObject, z.array(linkObject).length(1, 'link to exactly one entity')]);
export type LinkedToInput = z.infer<typeof linkedToInput>;

export interface LinkColumns {
  linkedPersonId: string | null;
  linkedOrganizationId: string | null;
  linkedSaleId: string | null;
  linkedProjectId: string | null;
  linkedInvoiceId: string | null;
  linkedEmployeeId: string | null;
}

const COLUMN_FIELDS: Record<LinkKey, keyof LinkColumns> = {
  personId: 'linkedPersonId',
  organizationId: 'linkedOrganizationId',
  saleId: 'linkedSaleId',
  projectId: 'linkedProjectId',
  invoiceId: 'linkedInvoiceId',
  employeeId: 'linkedEmployeeId',
};

export function linkColumns(input: LinkedToInput): LinkColumns {
  const o = Array.isArray(input) ? input[0] : input;
  const out: LinkColumns = {
    linkedPersonId: null,
    linkedOrganizationId: null,
    linkedSaleId: null,
    linkedProjectId: null,
    linkedInvoiceId: null,
    linkedEmployeeId: null,
  };
  for (const k of LINK_KEY_NAMES) {
    const v = o?.[k];
    if (v) out[COLUMN_FIELDS[k]] = v;
  }
  return out;
}

/** The linked entity must exist in the caller's environment: otherwise 400 naming the key. */
export function linkReferences(input: LinkedToInput | undefined): ReferenceCheck[] {
  if (!input) return [];
  const cols = linkColumns(input);
  return LINK_KEY_NAMES.map((k) => ({ path: `linkedTo.${k}`, target: LINK_KEYS[k].target, id: cols[COLUMN_FIELDS[k]] }));
}
