import type { ModuleName } from '../shared/rights.js';
import type { ResourceDefinition } from '../shared/resources/definition.js';
import { referenceResource } from '../shared/resources/reference-resource.js';
import { createCustomFieldGroup } from './create-custom-field-group.js';
import {
  type CreateCustomFieldGroupInput,
  createCustomFieldGroupSchema,
  type UpdateCustomFieldGroupInput,
  updateCustomFieldGroupSchema,
} from './custom-field.schema.js';
import { customFieldGroupSql } from './custom-field.sql.js';
import { type CustomFieldGroupRow, groupView } from './custom-field.view.js';
import { updateCustomFieldGroup } from './update-custom-field-group.js';

const loadGroups = (db: Parameters<ResourceDefinition['load']>[0], ids: string[]) =>
  db.customFieldGroup.findMany({ where: { id: { in: ids } }, include: { model: true } });

/** customfields/group: the groups of every model, with writes. */
export const customFieldGroupResource: ResourceDefinition<
  CustomFieldGroupRow,
  CreateCustomFieldGroupInput,
  UpdateCustomFieldGroupInput
> = {
  name: 'customfields/group',
  entityType: 'customfieldgroup',
  module: 'customfields',
  sql: customFieldGroupSql,
  defaultSort: [{ path: 'position', dir: 'asc' }],
  load: loadGroups,
  views: { v2: groupView, v3: groupView },
  create: { schema: createCustomFieldGroupSchema, run: createCustomFieldGroup },
  update: { schema: updateCustomFieldGroupSchema, run: updateCustomFieldGroup },
};

/** The groups of one model, read-only (e.g. crm/organizationcustomfieldgroups). */
export function modelCustomFieldGroupResource(modelKey: string, name: string, module: ModuleName) {
  return {
    ...referenceResource({
      name,
      entityType: 'customfieldgroup',
      module,
      sql: customFieldGroupSql,
      defaultSort: [{ path: 'position', dir: 'asc' }],
      load: loadGroups,
      view: groupView,
    }),
    scope: () => ({ path: 'model.key', op: 'eq' as const, value: modelKey }),
  };
}
