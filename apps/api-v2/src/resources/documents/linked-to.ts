import type { Link } from '@bo/domain/documents/linked-to';

/** v2 key and entity type of each link, in the reference's order (LinkedToEntity). */
const LINKS: [keyof Link, string, string][] = [
  ['personId', 'person_id', 'person'],
  ['organizationId', 'organization_id', 'organization'],
  ['saleId', 'sales_id', 'sale'],
  ['projectId', 'project_id', 'project'],
  ['invoiceId', 'invoice_id', 'invoice'],
  ['employeeId', 'employee_id', 'employee'],
];

/** v2 `linked_to` (reference LinkedToEntity), plus the key the filter uses. */
export function linkedToV2(link: Link | null): Record<string, unknown>[] {
  if (!link) return [];
  return LINKS.filter(([key]) => link[key]).map(([key, v2Key, type]) => ({
    id: link[key],
    label: null,
    type,
    [v2Key]: link[key],
  }));
}

/** the v2 link keys that are not the snake_case of the domain's */
export const LINK_NAMES = { sales_id: 'saleId' };
