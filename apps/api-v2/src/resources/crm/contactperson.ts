import type { ContactPerson } from '@bo/domain/crm/contactperson/contactperson.entity';
import { v2Names } from '../v2-names.js';
import { v2Resource } from '../v2-resource.js';

const names = v2Names();

/** crm/contactperson (reference: GetContactPerson): a person's link to an organization. */
export const contactPersonV2 = v2Resource<ContactPerson>({
  path: 'crm/contactperson',
  procedures: (c) => c.crm.contactperson,
  names,
  read: (c) => ({
    id: c.id,
    organization: c.organization
      ? { id: c.organization.id, name: c.organization.name, relation_number: c.organization.relationNumber }
      : null,
    person: c.person ? { id: c.person.id, full_name: c.person.fullName, relation_number: c.person.relationNumber } : null,
    created_at: names.output(c.createdAt),
    updated_at: names.output(c.updatedAt),
    is_active: c.isActive,
    work_function: c.workFunction,
    work_email: c.workEmail,
    work_phone: c.workPhone,
    work_mobile: c.workMobile,
    person_id: c.personId,
  }),
});
