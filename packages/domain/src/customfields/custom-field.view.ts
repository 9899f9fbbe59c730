import type { Models } from '@bo/db';

/** What the views read; Prisma rows (with the include below) and the raw page loader both fit. */
export interface CustomFieldGroupRow {
  id: string;
  name: string;
  position: number;
  type: string | null;
  model: { id: string; label: string };
}
export interface CustomFieldOptionRow {
  id: string;
  label: string;
  value: string;
  position: number;
}
export interface CustomFieldRow {
  id: string;
  name: string;
  label: string;
  position: number;
  filterable: boolean;
  searchable: boolean;
  mandatory: boolean;
  group: CustomFieldGroupRow | null;
  type: Pick<Models.CustomFieldTypeModel, 'type' | 'renderType' | 'valueType' | 'hasOptions'>;
  options: CustomFieldOptionRow[];
}

/** Prisma include that loads a definition with everything its v2 shape shows. */
export const customFieldInclude = {
  group: { include: { model: true } },
  type: true,
  options: { orderBy: [{ position: 'asc' as const }, { id: 'asc' as const }] },
};

export function modelView(m: { id: string; label: string }) {
  return { id: m.id, label: m.label };
}

/** reference: CustomFieldGroup (position is a string there) */
export function groupView(g: CustomFieldGroupRow) {
  return { id: g.id, name: g.name, position: String(g.position), model: modelView(g.model), type: g.type };
}

/** reference: CustomFieldOption */
export function optionView(o: CustomFieldOptionRow) {
  return { id: o.id, label: o.label, value: o.value, position: o.position };
}

/** reference: CustomFieldType */
export function typeView(t: Models.CustomFieldTypeModel) {
  return {
    id: t.id,
    type: t.type,
    name: t.name,
    position: t.position,
    is_mandatory_configurable: t.isMandatoryConfigurable,
    is_searchable_configurable: t.isSearchableConfigurable,
    is_filterable_configurable: t.isFilterableConfigurable,
    is_collective_mutatable_configurable: t.isCollectiveMutatableConfigurable,
  };
}

/** reference: CustomField (the definition; value null, as no entity is read) */
export function definitionView(f: CustomFieldRow) {
  return {
    id: f.id,
    name: f.name,
    label: f.label,
    value: null as string | null,
    type: f.type.type,
    render_type: f.type.renderType,
    position: f.position,
    filterable: f.filterable,
    searchable: f.searchable,
    mandatory: f.mandatory,
    value_type: f.type.valueType,
    custom_field_group: f.group ? groupView(f.group) : null,
    options: f.options.map(optionView),
  };
}

/** reference: GetCustomField, plus display_value (2024-11): the option's label for option fields. */
export function valueView(f: CustomFieldRow, value: string | null) {
  const option = value === null ? undefined : f.options.find((o) => o.value === value);
  return {
    ...definitionView(f),
    value,
    display_value: value === null ? null : (option?.label ?? value),
  };
}
