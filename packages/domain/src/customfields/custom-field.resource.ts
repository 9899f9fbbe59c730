import type { ResourceDefinition } from '../shared/resources/definition.js';
import { createCustomField } from './create-custom-field.js';
import {
  type CreateCustomFieldInput,
  createCustomFieldSchema,
  type UpdateCustomFieldInput,
  updateCustomFieldSchema,
} from './custom-field.schema.js';
import { customFieldSql } from './custom-field.sql.js';
import { type CustomFieldRow, customFieldInclude, definitionView } from './custom-field.view.js';
import { updateCustomField } from './update-custom-field.js';
import type { ModuleName } from '../shared/rights.js';

/**
 * The custom-field definitions of one model as a v2 resource, e.g.
 * crm/organizationcustomfields for `organization`. Reads follow the reference
 * (CustomField); POST/PUT/DELETE are our addition so fields can be defined.
 */
export function customFieldDefinitionResource(
  modelKey: string,
  name: string,
  module: ModuleName,
): ResourceDefinition<CustomFieldRow, CreateCustomFieldInput, UpdateCustomFieldInput> {
  return {
    name,
    entityType: 'customfield',
    module,
    sql: customFieldSql,
    scope: () => ({ path: 'model_key', op: 'eq', value: modelKey }),
    // equal positions keep the order in which fields were defined (ids are random)
    defaultSort: [
      { path: 'position', dir: 'asc' },
      { path: 'created_at', dir: 'asc' },
    ],
    load: (db, ids) => db.customField.findMany({ where: { id: { in: ids } }, include: customFieldInclude }),
    views: { v2: definitionView, v3: definitionView },
    create: { schema: createCustomFieldSchema, run: (w, input) => createCustomField(w, modelKey, input) },
    update: { schema: updateCustomFieldSchema, run: updateCustomField },
  };
}
