import { entityCreate, entityDelete, entityQueries, entityUpdate } from '../shared/entity/index.js';
import type { ModuleName } from '../shared/rights.js';
import { router } from '../trpc.js';
import { createCustomField } from './create-custom-field.js';
import { createCustomFieldGroup } from './create-custom-field-group.js';
import { createCustomFieldOption } from './create-custom-field-option.js';
import {
  customFieldDefinitions,
  customFieldGroup,
  customFieldModel,
  customFieldOption,
  customFieldType,
  modelCustomFieldGroups,
} from './custom-field.entity.js';
import {
  createCustomFieldGroupInput,
  createCustomFieldInput,
  createCustomFieldOptionInput,
  updateCustomFieldGroupInput,
  updateCustomFieldInput,
  updateCustomFieldOptionInput,
} from './custom-field.schema.js';
import { updateCustomField } from './update-custom-field.js';
import { updateCustomFieldGroup } from './update-custom-field-group.js';
import { updateCustomFieldOption } from './update-custom-field-option.js';

/** The custom-field definitions of one model, guarded by that model's right; definitions can be added, changed, removed. */
export function customFieldDefinitionRouter(modelKey: string, module: ModuleName) {
  const definitions = customFieldDefinitions(modelKey, module);
  return router({
    ...entityQueries(definitions),
    create: entityCreate(definitions, createCustomFieldInput, createCustomField(modelKey)),
    update: entityUpdate(definitions, updateCustomFieldInput, updateCustomField),
    delete: entityDelete(definitions),
  });
}

/** The custom-field groups of one model, read-only, guarded by that model's right. */
export function modelCustomFieldGroupRouter(modelKey: string, module: ModuleName) {
  return router(entityQueries(modelCustomFieldGroups(modelKey, module)));
}

export const customfieldsRouter = router({
  group: router({
    ...entityQueries(customFieldGroup),
    create: entityCreate(customFieldGroup, createCustomFieldGroupInput, createCustomFieldGroup),
    update: entityUpdate(customFieldGroup, updateCustomFieldGroupInput, updateCustomFieldGroup),
    delete: entityDelete(customFieldGroup),
  }),
  option: router({
    ...entityQueries(customFieldOption),
    create: entityCreate(customFieldOption, createCustomFieldOptionInput, createCustomFieldOption),
    update: entityUpdate(customFieldOption, updateCustomFieldOptionInput, updateCustomFieldOption),
    delete: entityDelete(customFieldOption),
  }),
  model: router(entityQueries(customFieldModel)),
  type: router(entityQueries(customFieldType)),
  /** the definitions of each model with custom fields */
  definitions: router({
    organization: customFieldDefinitionRouter('organization', 'crm'),
    person: customFieldDefinitionRouter('person', 'crm'),
    project: customFieldDefinitionRouter('project', 'projects'),
    sale: customFieldDefinitionRouter('sale', 'sales'),
  }),
  /** the groups of each model with custom fields */
  groups: router({
    organization: modelCustomFieldGroupRouter('organization', 'crm'),
    person: modelCustomFieldGroupRouter('person', 'crm'),
    project: modelCustomFieldGroupRouter('project', 'projects'),
    sale: modelCustomFieldGroupRouter('sale', 'sales'),
  }),
});
