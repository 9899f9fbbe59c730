import type { SqlModel } from '@bo/db';
import { z } from 'zod';
import { assertReferencesExist } from '../shared/references.js';
import type { Db } from '../shared/resources/definition.js';

/**
 * `linked_to` of documents, external documents and timeline messages: the one
 * entity a record belongs to. Keys as in the v2 reference (PostDocumentLinkedTo):
 * person_id, organization_id, sales_id, project_id, invoice_id, employee_id.
 * Stored as plain columns (linked_<type>_id); the entities' tables belong to
 * other modules, so existence is checked here by table name.
 */
export const LINK_KEYS = {
  person_id: { column: 'linked_person_id', table: 'person', type: 'person', field: 'linkedPersonId' },
  organization_id: {
    column: 'linked_organization_id',
    table: 'organization',
    type: 'organization',
    field: 'linkedOrganizationId',
  },
  sales_id: { column: 'linked_sale_id', table: 'sale', type: 'sale', field: 'linkedSaleId' },
  project_id: { column: 'linked_project_id', table: 'project', type: 'project', field: 'linkedProjectId' },
  invoice_id: { column: 'linked_invoice_id', table: 'invoice', type: 'invoice', field: 'linkedInvoiceId' },
  employee_id: { column: 'linked_employee_id', table: 'employee', type: 'employee', field: 'linkedEmployeeId' },
} as const;
export type LinkKey = keyof typeof LINK_KEYS;
const KEYS = Object.keys(LINK_KEYS) as LinkKey[];

const linkObject = z
  .strictObject(
    Object.fromEntries(KEYS.map((k) => [k, z.string().min(1).nullable().optional()])) as Record<
      LinkKey,
      z.ZodOptional<z.ZodNullable<z.ZodString>>
    >,
  )
  .refine((o) => KEYS.filter((k) => o[k]).length === 1, {
    message: `name exactly one of ${KEYS.join(', ')}`,
  });

/** An object with one key; the reference's array form of one such object is accepted too. */
export const linkedToSchema = z.union([linkObject, z.array(linkObject).length(1, 'link to exactly one entity')]);
export type LinkedToInput = z.infer<typeof linkedToSchema>;

export interface LinkColumns {
  linkedPersonId: string | null;
  linkedOrganizationId: string | null;
  linkedSaleId: string | null;
  linkedProjectId: string | null;
  linkedInvoiceId: string | null;
  linkedEmployeeId: string | null;
}

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
  for (const k of KEYS) {
    const v = o?.[k];
    if (v) out[LINK_KEYS[k].field] = v;
  }
  return out;
}

/** The linked entity must exist in the caller's environment: otherwise 400 naming the key. */
export async function assertLinkExists(tx: Db, environmentId: string, cols: LinkColumns): Promise<void> {
  await assertReferencesExist(
    tx,
    environmentId,
    KEYS.map((k) => ({ path: `linked_to.${k}`, table: LINK_KEYS[k].table, id: cols[LINK_KEYS[k].field] })),
  );
}

/** v2 read shape (reference LinkedToEntity), plus the key the filter uses. */
export function linkedToV2(row: LinkColumns): Record<string, unknown>[] {
  return KEYS.filter((k) => row[LINK_KEYS[k].field]).map((k) => ({
    id: row[LINK_KEYS[k].field],
    label: null,
    type: LINK_KEYS[k].type,
    [k]: row[LINK_KEYS[k].field],
  }));
}

export function linkedToV3(row: LinkColumns): { type: string; id: string } | null {
  const k = KEYS.find((key) => row[LINK_KEYS[key].field]);
  return k ? { type: LINK_KEYS[k].type, id: row[LINK_KEYS[k].field] as string } : null;
}

/** `q[linked_to.invoice_id]=…`: a relation of the table onto itself exposing the link columns. */
export function linkedToSql(table: string): SqlModel {
  return {
    table,
    fields: Object.fromEntries(KEYS.map((k) => [k, { column: LINK_KEYS[k].column, type: 'id' as const }])),
  };
}
