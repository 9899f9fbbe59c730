import type { z } from 'zod';
import { defineEntity, f, type TargetEntity } from '../../shared/entity/index.js';
import { organization } from '../organization/organization.entity.js';
import { person } from '../person/person.entity.js';
import { organizationOfContact, personOfContact } from './contactperson.shapes.js';

/** A person's link to an organization, with the person's work details there. */
export const contactPerson = defineEntity({
  type: 'contactperson',
  table: 'contact_person',
  module: 'crm',
  fields: {
    id: f.id(),
    organization: f.ref((): TargetEntity => organization, organizationOfContact, { column: 'organization_id' }),
    /** the person's id as the organization's embedded contacts show it */
    personId: f.requiredString({ writable: false }),
    person: f.ref((): TargetEntity => person, personOfContact, { column: 'person_id' }),
    isActive: f.boolean(),
    workFunction: f.string(),
    workEmail: f.string(),
    workPhone: f.string(),
    workMobile: f.string(),
    createdAt: f.createdAt(),
    updatedAt: f.updatedAt(),
  },
});

export type ContactPerson = z.infer<typeof contactPerson.schema>;
