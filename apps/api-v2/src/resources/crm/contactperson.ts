import { contactPerson, type ContactPerson } from '@bo/domain/crm/contactperson/contactperson.entity';
import { v2Names } from '../v2-names.js';
import { v2Resource } from '../v2-resource.js';
import { v2Shape } from '../v2-shape.js';

const names = v2Names();

/** crm/contactperson (reference: GetContactPerson): a person's link to an organization. */
export const contactPersonV2 = v2Resource<ContactPerson>({
  path: 'crm/contactperson',
  entity: contactPerson,
  procedures: (c) => c.crm.contactperson,
  names,
  shape: v2Shape(contactPerson, names, {
    id: 'id',
    organization: { relation: 'organization', keys: { id: 'id', name: 'name', relation_number: 'relationNumber' } },
    person: { relation: 'person', keys: { id: 'id', full_name: 'fullName', relation_number: 'relationNumber' } },
    created_at: 'createdAt',
    updated_at: 'updatedAt',
    is_active: 'isActive',
    work_function: 'workFunction',
    work_email: 'workEmail',
    work_phone: 'workPhone',
    work_mobile: 'workMobile',
    person_id: 'personId',
  }),
});
