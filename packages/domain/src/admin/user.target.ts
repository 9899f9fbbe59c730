import { defineEntity, f } from '../shared/entity/index.js';

/** A user of the environment, as records that name an author refer to it. */
export const userTarget = defineEntity({
  type: 'user',
  table: 'user_account',
  module: 'crm',
  fields: { id: f.id(), name: f.requiredString(), createdAt: f.createdAt() },
});
