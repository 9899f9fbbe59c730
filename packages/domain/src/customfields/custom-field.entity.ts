import { z } from 'zod';
import { defineEntity, type Entity, f, type TargetEntity } from '../shared/entity/index.js';
import type { ModuleName } from '../shared/rights.js';

/** Which models carry custom fields (organization, person, project, sale, hours); seeded per environment. */
export const customFieldModel = defineEntity({
  type: 'customfieldmodel',
  table: 'custom_field_model',
  module: 'customfields',
  nameField: 'label',
  defaultSort: [{ path: 'label', dir: 'asc' }],
  fields: { id: f.id(), key: f.requiredString(), label: f.requiredString() },
});

/** The kinds of custom field (text, integer, dropdown, …); seeded per environment. */
export const customFieldType = defineEntity({
  type: 'customfieldtype',
  table: 'custom_field_type',
  module: 'customfields',
  defaultSort: [{ path: 'position', dir: 'asc' }],
  fields: {
    id: f.id(),
    type: f.requiredString(),
    name: f.requiredString(),
    position: f.requiredInteger(),
    /** Text, Integer, Decimal, Date, Time or DateTime */
    valueType: f.requiredString(),
    renderType: f.requiredString({ filter: false, sort: false }),
    hasOptions: f.boolean({ filter: false, sort: false }),
    isMandatoryConfigurable: f.boolean(),
    isSearchableConfigurable: f.boolean(),
    isFilterableConfigurable: f.boolean(),
    isCollectiveMutatableConfigurable: f.boolean(),
  },
});

export const modelReference = z.object({ id: z.string(), label: z.string() });

const groupFields = {
  id: f.id(),
  name: f.requiredString(),
  position: f.requiredInteger(),
  type: f.string(),
  model: f.ref(() => customFieldModel, modelReference, { column: 'model_id' }),
  createdAt: f.createdAt(),
  updatedAt: f.updatedAt(),
};

/** A group of custom fields of one model. */
export const customFieldGroup = defineEntity({
  type: 'customfieldgroup',
  table: 'custom_field_group',
  module: 'customfields',
  defaultSort: [{ path: 'position', dir: 'asc' }],
  fields: groupFields,
});

/** The groups of one model, read with that model's right (e.g. the CRM's for organization groups). */
export function modelCustomFieldGroups(modelKey: string, module: ModuleName) {
  return defineEntity({
    type: 'customfieldgroup',
    table: 'custom_field_group',
    module,
    defaultSort: [{ path: 'position', dir: 'asc' }],
    fields: groupFields,
    scope: () => ({ path: 'model.key', op: 'eq', value: modelKey }),
  });
}

export const groupReference = z.object({
  id: z.string(),
  name: z.string(),
  position: z.number(),
  type: z.string().nullable(),
  model: modelReference.nullable(),
});
export const optionReference = z.object({ id: z.string(), label: z.string(), value: z.string(), position: z.number() });
export const typeReference = z.object({
  type: z.string(),
  renderType: z.string(),
  valueType: z.string(),
  hasOptions: z.boolean(),
});

/** An option of a dropdown or radio field. */
export const customFieldOption = defineEntity({
  type: 'customfieldoption',
  table: 'custom_field_option',
  module: 'customfields',
  defaultSort: [{ path: 'position', dir: 'asc' }],
  fields: {
    id: f.id(),
    /** checked by the create itself: a field without options is refused there */
    customField: f.ref((): TargetEntity => customField, z.object({ id: z.string(), name: z.string() }), {
      column: 'custom_field_id',
      writable: false,
    }),
    label: f.requiredString(),
    value: f.requiredString(),
    position: f.requiredInteger(),
    createdAt: f.createdAt(),
    updatedAt: f.updatedAt(),
  },
});

const definitionFields = {
  id: f.id(),
  name: f.requiredString(),
  label: f.requiredString(),
  position: f.requiredInteger(),
  filterable: f.boolean(),
  searchable: f.boolean(),
  mandatory: f.boolean(),
  /** the model's key, kept beside the model so filters need no join */
  modelKey: f.requiredString({ writable: false }),
  group: f.ref(() => customFieldGroup, groupReference, { column: 'group_id' }),
  type: f.ref(() => customFieldType, typeReference, { column: 'type_id', writable: false }),
  options: f.many(() => customFieldOption, optionReference, {
    remote: 'custom_field_id',
    writable: false,
    orderBy: (a) => `${a}.position, ${a}.id`,
  }),
  createdAt: f.createdAt(),
  updatedAt: f.updatedAt(),
};

/** equal positions keep the order in which fields were defined (ids are random) */
const definitionSort = [
  { path: 'position', dir: 'asc' as const },
  { path: 'createdAt', dir: 'asc' as const },
];

/** A custom-field definition of any model. */
export const customField = defineEntity({
  type: 'customfield',
  table: 'custom_field',
  module: 'customfields',
  defaultSort: definitionSort,
  fields: definitionFields,
});

/** The custom-field definitions of one model, guarded by that model's right. */
export function customFieldDefinitions(modelKey: string, module: ModuleName): Entity<typeof definitionFields> {
  return defineEntity({
    type: 'customfield',
    table: 'custom_field',
    module,
    defaultSort: definitionSort,
    fields: definitionFields,
    scope: () => ({ path: 'modelKey', op: 'eq', value: modelKey }),
  });
}

export type CustomFieldModel = z.infer<typeof customFieldModel.schema>;
export type CustomFieldType = z.infer<typeof customFieldType.schema>;
export type CustomFieldGroup = z.infer<typeof customFieldGroup.schema>;
export type CustomFieldOption = z.infer<typeof customFieldOption.schema>;
export type CustomField = z.infer<typeof customField.schema>;
