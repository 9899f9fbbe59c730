import { z } from 'zod';
import { defineEntity, f, type TargetEntity } from '../../shared/entity/index.js';
import { organization } from '../organization/organization.entity.js';

/** A person's link to an organization, with the person's work details there. */
export const contactPerson = defineEntity({
  type: 'contactperson',
  table: 'contact_person',
  module: 'crm',
  fields: {
    id: f.id(),
    organization: f.ref(
      (): TargetEntity => organization,
      z.object({ id: z.string(), name: z.string(), relationNumber: z.string().nullable() }),
      {
        column: 'organization_id',
      },
    ),
    personId: f.requiredString({ column: 'person_id' }),
    isActive: f.boolean(),
    workFunction: f.string(),
    workEmail: f.string(),
    workPhone: f.string(),
    workMobile: f.string(),
    createdAt: f.createdAt(),
    updatedAt: f.updatedAt(),
  },
});
