import { z } from 'zod';
import { defineEntity, f, type TargetEntity } from '../../shared/entity/index.js';
import { organization } from '../organization/organization.entity.js';
import { person } from '../person/person.entity.js';
import { relationType, relationTypeReference } from '../reference/reference.entities.js';

/** Who can be invoiced: organizations and persons in one collection (the `debtor` view); one of the two is set. */
export const debtor = defineEntity({
  type: 'debtor',
  table: 'debtor',
  module: 'crm',
  defaultSort: [{ path: 'name', dir: 'asc' }],
  // a view of organizations and persons: no index serves its order
  indexedOrder: false,
  fields: {
    id: f.id(),
    name: f.string({ writable: false }),
    relationNumber: f.string({ writable: false }),
    isActive: f.boolean({ writable: false }),
    organization: f.ref(
      (): TargetEntity => organization,
      z.object({
        id: z.string(),
        name: z.string(),
        relationNumber: z.string().nullable(),
        relationType: relationTypeReference.nullable(),
      }),
      { column: 'organization_id', writable: false },
    ),
    person: f.ref(
      (): TargetEntity => person,
      z.object({
        id: z.string(),
        fullName: z.string().nullable(),
        relationNumber: z.string().nullable(),
        relationType: relationTypeReference.nullable(),
      }),
      { column: 'person_id', writable: false },
    ),
    relationType: f.ref(() => relationType, relationTypeReference, { column: 'relation_type_id', writable: false }),
    createdAt: f.createdAt(),
    updatedAt: f.updatedAt(),
  },
});

export type Debtor = z.infer<typeof debtor.schema>;
