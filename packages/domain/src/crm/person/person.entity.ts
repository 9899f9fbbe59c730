import { defineEntity, f } from '../../shared/entity/index.js';

/**
 * A person of the CRM as other entities refer to it. (The person resource itself is
 * still declared the earlier way; this declaration grows into it when it is converted.)
 */
export const person = defineEntity({
  type: 'person',
  table: 'person',
  module: 'crm',
  nameField: 'fullName',
  fields: {
    id: f.id(),
    fullName: f.string(),
    relationNumber: f.string(),
    createdAt: f.createdAt(),
    updatedAt: f.updatedAt(),
  },
});
