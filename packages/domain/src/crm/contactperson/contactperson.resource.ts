import type { Models } from '@bo/db';
import { v2DateTime, v3DateTime } from '../../shared/format.js';
import type { ResourceDefinition } from '../../shared/resources/definition.js';
import {
  type CreateContactPersonInput,
  createContactPersonSchema,
  type UpdateContactPersonInput,
  updateContactPersonSchema,
} from './contactperson.schema.js';
import { contactPersonSql } from './contactperson.sql.js';
import { createContactPerson } from './create-contactperson.js';
import { updateContactPerson } from './update-contactperson.js';

export type ContactPersonRow = Models.ContactPersonModel & {
  organization: Models.OrganizationModel;
  person: Models.PersonModel;
};

/** reference: GetContactPerson */
export function contactPersonV2(c: ContactPersonRow): Record<string, unknown> {
  return {
    id: c.id,
    organization: { id: c.organization.id, name: c.organization.name, relation_number: c.organization.relationNumber },
    person: { id: c.person.id, full_name: c.person.fullName, relation_number: c.person.relationNumber },
    created_at: v2DateTime(c.createdAt),
    updated_at: v2DateTime(c.updatedAt),
    is_active: c.isActive,
    work_function: c.workFunction,
    work_email: c.workEmail,
    work_phone: c.workPhone,
    work_mobile: c.workMobile,
    person_id: c.personId,
  };
}

function contactPersonV3(c: ContactPersonRow): Record<string, unknown> {
  return {
    id: c.id,
    organizationId: c.organizationId,
    personId: c.personId,
    isActive: c.isActive,
    workFunction: c.workFunction,
    workEmail: c.workEmail,
    workPhone: c.workPhone,
    workMobile: c.workMobile,
    createdAt: v3DateTime(c.createdAt),
    updatedAt: v3DateTime(c.updatedAt),
  };
}

/** crm/contactperson: a person's link to an organization; `q[organization.id]=…` lists an organization's contacts. */
export const contactPersonResource: ResourceDefinition<ContactPersonRow, CreateContactPersonInput, UpdateContactPersonInput> = {
  name: 'crm/contactperson',
  entityType: 'contactperson',
  module: 'crm',
  sql: contactPersonSql,
  defaultSort: [{ path: 'created_at', dir: 'asc' }],
  load: (db, ids) => db.contactPerson.findMany({ where: { id: { in: ids } }, include: { organization: true, person: true } }),
  views: { v2: contactPersonV2, v3: contactPersonV3 },
  create: { schema: createContactPersonSchema, run: createContactPerson },
  update: { schema: updateContactPersonSchema, run: updateContactPerson },
};
