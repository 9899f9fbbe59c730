import { z } from 'zod';
import { defineEntity, f, type TargetEntity } from '../shared/entity/index.js';

/**
 * The custom-field definitions and groups of sales (sales/salescustomfields,
 * sales/salescustomfieldgroups): the rows of the custom-field tables of the `sale`
 * model, guarded by the sales right.
 */
export const SALE_MODEL = 'sale';

export const saleCustomFieldModel = defineEntity({
  type: 'customfieldmodel',
  table: 'custom_field_model',
  module: 'sales',
  nameField: 'label',
  fields: { id: f.id(), key: f.requiredString(), label: f.requiredString() },
});

const modelShape = z.object({ id: z.string(), label: z.string() });

export const saleCustomFieldGroup = defineEntity({
  type: 'customfieldgroup',
  table: 'custom_field_group',
  module: 'sales',
  defaultSort: [{ path: 'position', dir: 'asc' }],
  scope: () => ({ path: 'model.key', op: 'eq', value: SALE_MODEL }),
  fields: {
    id: f.id(),
    name: f.requiredString(),
    position: f.requiredInteger(),
    model: f.ref((): TargetEntity => saleCustomFieldModel, modelShape, { column: 'model_id' }),
    type: f.string(),
    createdAt: f.createdAt(),
    updatedAt: f.updatedAt(),
  },
});
export type SaleCustomFieldGroup = z.infer<typeof saleCustomFieldGroup.schema>;

export const saleCustomFieldType = defineEntity({
  type: 'customfieldtype',
  table: 'custom_field_type',
  module: 'sales',
  fields: {
    id: f.id(),
    type: f.requiredString(),
    renderType: f.requiredString(),
    valueType: f.requiredString(),
  },
});

export const saleCustomFieldOption = defineEntity({
  type: 'customfieldoption',
  table: 'custom_field_option',
  module: 'sales',
  fields: {
    id: f.id(),
    label: f.requiredString(),
    value: f.requiredString(),
    position: f.requiredInteger(),
  },
});

export const saleCustomField = defineEntity({
  type: 'customfield',
  table: 'custom_field',
  module: 'sales',
  nameField: 'name',
  // equal positions keep the order in which fields were defined (ids are random)
  defaultSort: [
    { path: 'position', dir: 'asc' },
    { path: 'createdAt', dir: 'asc' },
  ],
  scope: () => ({ path: 'modelKey', op: 'eq', value: SALE_MODEL }),
  fields: {
    id: f.id(),
    name: f.requiredString(),
    label: f.requiredString(),
    modelKey: f.requiredString({ writable: false }),
    type: f.ref(
      (): TargetEntity => saleCustomFieldType,
      z.object({ type: z.string(), renderType: z.string(), valueType: z.string() }),
      { column: 'type_id', writable: false },
    ),
    position: f.requiredInteger(),
    filterable: f.boolean(),
    searchable: f.boolean(),
    mandatory: f.boolean(),
    customFieldGroup: f.ref(
      (): TargetEntity => saleCustomFieldGroup,
      z.object({
        id: z.string(),
        name: z.string(),
        position: z.number(),
        model: modelShape.nullable(),
        type: z.string().nullable(),
      }),
      { column: 'group_id' },
    ),
    options: f.many(
      (): TargetEntity => saleCustomFieldOption,
      z.object({ id: z.string(), label: z.string(), value: z.string(), position: z.number() }),
      { remote: 'custom_field_id', orderBy: (o) => `${o}.position, ${o}.id` },
    ),
    createdAt: f.createdAt(),
    updatedAt: f.updatedAt(),
  },
});
export type SaleCustomField = z.infer<typeof saleCustomField.schema>;
