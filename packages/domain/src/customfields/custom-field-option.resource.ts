import type { Models } from '@bo/db';
import type { ResourceDefinition } from '../shared/resources/definition.js';
import { createCustomFieldOption } from './create-custom-field-option.js';
import {
  type CreateCustomFieldOptionInput,
  createCustomFieldOptionSchema,
  type UpdateCustomFieldOptionInput,
  updateCustomFieldOptionSchema,
} from './custom-field.schema.js';
import { customFieldOptionSql } from './custom-field.sql.js';
import { optionView } from './custom-field.view.js';
import { updateCustomFieldOption } from './update-custom-field-option.js';

/** customfields/option: the options of dropdown and radio fields. */
export const customFieldOptionResource: ResourceDefinition<
  Models.CustomFieldOptionModel,
  CreateCustomFieldOptionInput,
  UpdateCustomFieldOptionInput
> = {
  name: 'customfields/option',
  entityType: 'customfieldoption',
  module: 'customfields',
  sql: customFieldOptionSql,
  defaultSort: [{ path: 'position', dir: 'asc' }],
  load: (db, ids) => db.customFieldOption.findMany({ where: { id: { in: ids } } }),
  views: { v2: optionView, v3: optionView },
  create: { schema: createCustomFieldOptionSchema, run: createCustomFieldOption },
  update: { schema: updateCustomFieldOptionSchema, run: updateCustomFieldOption },
};
