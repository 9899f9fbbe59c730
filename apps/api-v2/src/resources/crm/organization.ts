import { type Organization, organization } from '@bo/domain/crm/organization/organization.entity';
import { createOrganizationInput, updateOrganizationInput } from '@bo/domain/crm/organization/organization.schema';
import { employeeReferenceShapeV2 } from '../hrm/employee-reference.js';
import { v2Names } from '../v2-names.js';
import { v2Resource } from '../v2-resource.js';
import { V2_CUSTOM_FIELDS, V2_EMPTY_LIST, V2_NULL, v2Embedded, v2Fields, v2Shape } from '../v2-shape.js';

/** v2 names that are not the snake_case of the domain's */
const names = v2Names({
  organizationsize: 'organizationSize',
  linked_persons_contacts: 'contacts',
  line_1: 'line1',
  line_2: 'line2',
});

/** an address as v2 shows it: its fields, and `country` (always empty here) */
const address = (field: 'visitingAddress' | 'postalAddress') => ({
  relation: field,
  keys: { ...v2Embedded(organization, field, names), country: V2_NULL },
});

const v2SendInvoiceEmailTo = Object.fromEntries(
  Object.entries(v2Fields(organization, names)).filter(([key]) => key.startsWith('send_invoice_email_to_')),
);

/** crm/organization (reference: GetOrganization); every field present, null when empty. */
export const organizationV2 = v2Resource<Organization>({
  path: 'crm/organization',
  entity: organization,
  procedures: (c) => c.crm.organization,
  inputs: { create: createOrganizationInput, update: updateOrganizationInput, remove: true },
  documentAsBuilt: ['visiting_address', 'postal_address', 'relation_manager', 'debtor'],
  names,
  shape: v2Shape(organization, names, {
    ...v2Fields(organization, names, ['visitingAddress', 'postalAddress', 'relationManager', 'debtor', 'customFields']),
    visiting_address: address('visitingAddress'),
    postal_address: address('postalAddress'),
    relation_manager: { relation: 'relationManager', keys: employeeReferenceShapeV2 },
    custom_fields: { customFields: 'customFields', form: V2_CUSTOM_FIELDS },
    debtor: {
      object: {
        ...v2Embedded(organization, 'debtor', names),
        payment_term: V2_NULL,
        // the organization's own send_invoice_email_to_* fields, shown again in its debtor
        ...v2SendInvoiceEmailTo,
        invoicetemplate_id: V2_NULL,
      },
    },
    customer_group: V2_NULL,
    teams: V2_EMPTY_LIST,
    accountancy: V2_NULL,
    sbi_codes: V2_EMPTY_LIST,
    simplicate_url: V2_NULL,
  }),
});
