import { type Organization, organization } from '@bo/domain/crm/organization/organization.entity';
import { createOrganizationInput, updateOrganizationInput } from '@bo/domain/crm/organization/organization.schema';
import { customFieldValuesV2 } from '../customfields/values.js';
import { employeeReferenceV2 } from '../hrm/employee-reference.js';
import { v2Names } from '../v2-names.js';
import { v2Resource } from '../v2-resource.js';

/** v2 names that are not the snake_case of the domain's */
const names = v2Names({
  organizationsize: 'organizationSize',
  linked_persons_contacts: 'contacts',
  line_1: 'line1',
  line_2: 'line2',
});

// Fields are added onto the object names.output made (Object.assign) rather than spread with
// it into a literal: V8 gives `{ ...x, k1, k2, … }` no cached shape, and that spread took most of
// a row's time (docs/performance.md). The same holds in every read of a list.
function address(a: Organization['visitingAddress']) {
  return a ? Object.assign(names.output(a) as Record<string, unknown>, { country: null }) : null;
}

/** crm/organization (reference: GetOrganization); every field present, null when empty. */
export const organizationV2 = v2Resource<Organization>({
  path: 'crm/organization',
  entity: organization,
  procedures: (c) => c.crm.organization,
  inputs: { create: createOrganizationInput, update: updateOrganizationInput, remove: true },
  documentAsBuilt: ['visiting_address', 'postal_address', 'relation_manager', 'debtor'],
  names,
  read: (o) => {
    const { debtor, relationManager, visitingAddress, postalAddress, customFields, ...rest } = o;
    return Object.assign(names.output(rest) as Record<string, unknown>, {
      visiting_address: address(visitingAddress),
      postal_address: address(postalAddress),
      relation_manager: relationManager ? employeeReferenceV2(relationManager) : null,
      custom_fields: customFieldValuesV2(customFields),
      debtor: Object.assign(names.output(debtor) as Record<string, unknown>, {
        payment_term: null,
        send_invoice_email_to_contact: o.sendInvoiceEmailToContact,
        send_invoice_email_to_project_contact: o.sendInvoiceEmailToProjectContact,
        send_invoice_email_to_fixed_email: o.sendInvoiceEmailToFixedEmail,
        send_invoice_email_to_cc: o.sendInvoiceEmailToCc,
        invoicetemplate_id: null,
      }),
      customer_group: null,
      teams: [],
      accountancy: null,
      sbi_codes: [],
      simplicate_url: null,
    });
  },
});
