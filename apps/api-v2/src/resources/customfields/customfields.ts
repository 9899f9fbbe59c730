import type {
  CustomField,
  CustomFieldGroup,
  CustomFieldModel,
  CustomFieldOption,
  CustomFieldType,
} from '@bo/domain/customfields/custom-field.entity';
import type { createCaller } from '@bo/domain';
import { v2Names } from '../v2-names.js';
import { type AnyV2Resource, type EntityProcedures, v2Resource } from '../v2-resource.js';

/** v2 names that are not the snake_case of the domain's */
const names = v2Names({
  custom_field_group: 'group',
  custom_field_group_id: 'groupId',
  customfield: 'customField',
  customfield_id: 'customFieldId',
});
const readOnly = { create: false, update: false, delete: false };

/** reference: CustomFieldModel */
function modelV2(m: Pick<CustomFieldModel, 'id' | 'label'>) {
  return { id: m.id, label: m.label };
}

/** reference: CustomFieldGroup (position is a string there) */
function groupV2(g: Pick<CustomFieldGroup, 'id' | 'name' | 'position' | 'type' | 'model'>) {
  return { id: g.id, name: g.name, position: String(g.position), model: g.model ? modelV2(g.model) : null, type: g.type };
}

/** reference: CustomFieldOption */
function optionV2(o: Pick<CustomFieldOption, 'id' | 'label' | 'value' | 'position'>) {
  return { id: o.id, label: o.label, value: o.value, position: o.position };
}

/** reference: CustomField (the definition; value null, as no entity is read) */
function definitionV2(d: CustomField): Record<string, unknown> {
  return {
    id: d.id,
    name: d.name,
    label: d.label,
    value: null,
    type: d.type?.type ?? null,
    render_type: d.type?.renderType ?? null,
    position: d.position,
    filterable: d.filterable,
    searchable: d.searchable,
    mandatory: d.mandatory,
    value_type: d.type?.valueType ?? null,
    custom_field_group: d.group ? groupV2(d.group) : null,
    options: d.options.map(optionV2),
  };
}

export const customFieldGroupV2 = v2Resource<CustomFieldGroup>({
  path: 'customfields/group',
  procedures: (c) => c.customfields.group,
  names,
  referencePaths: { updateByPost: true },
  read: groupV2,
});

export const customFieldOptionV2 = v2Resource<CustomFieldOption>({
  path: 'customfields/option',
  procedures: (c) => c.customfields.option,
  names,
  referencePaths: { updateByPost: true },
  read: optionV2,
});

export const customFieldModelV2 = v2Resource<CustomFieldModel>({
  path: 'customfields/model',
  procedures: (c) => c.customfields.model,
  names,
  methods: readOnly,
  read: modelV2,
});

/** reference: CustomFieldType */
export const customFieldTypeV2 = v2Resource<CustomFieldType>({
  path: 'customfields/type',
  procedures: (c) => c.customfields.type,
  names,
  methods: readOnly,
  read: (t) => ({
    id: t.id,
    type: t.type,
    name: t.name,
    position: t.position,
    is_mandatory_configurable: t.isMandatoryConfigurable,
    is_searchable_configurable: t.isSearchableConfigurable,
    is_filterable_configurable: t.isFilterableConfigurable,
    is_collective_mutatable_configurable: t.isCollectiveMutatableConfigurable,
  }),
});

type Caller = ReturnType<typeof createCaller>;
type Model = 'organization' | 'person' | 'project' | 'sale';

/** The definitions and the groups of one model, under the model's own v2 paths (crm/organizationcustomfields, …). */
function modelResources(model: Model, definitionsPath: string, groupsPath: string): AnyV2Resource[] {
  return [
    v2Resource<CustomField>({
      path: definitionsPath,
      procedures: (c: Caller): EntityProcedures<CustomField> => c.customfields.definitions[model],
      names,
      read: definitionV2,
    }),
    v2Resource<CustomFieldGroup>({
      path: groupsPath,
      procedures: (c: Caller): EntityProcedures<CustomFieldGroup> => c.customfields.groups[model],
      names,
      methods: readOnly,
      read: groupV2,
    }),
  ];
}

export const customFieldsV2Resources: AnyV2Resource[] = [
  customFieldGroupV2,
  customFieldOptionV2,
  customFieldModelV2,
  customFieldTypeV2,
  ...modelResources('organization', 'crm/organizationcustomfields', 'crm/organizationcustomfieldgroups'),
  ...modelResources('person', 'crm/personcustomfields', 'crm/personcustomfieldgroups'),
  ...modelResources('project', 'projects/projectcustomfields', 'projects/projectcustomfieldgroups'),
  ...modelResources('sale', 'sales/salescustomfields', 'sales/salescustomfieldgroups'),
];

/** the reads, for the custom-field resources other areas mount under their own paths (hrm/employeecustomfields) */
export { definitionV2, groupV2, names as customFieldNames };
