import type { CustomFieldValue } from '@bo/domain/customfields/custom-field-value.schema';

/** `custom_fields` of an entity (reference: GetCustomField, plus display_value of 2024-11; a group's position is a string). */
export function customFieldValuesV2(values: CustomFieldValue[]): Record<string, unknown>[] {
  return values.map((v) => ({
    id: v.id,
    name: v.name,
    label: v.label,
    value: v.value,
    type: v.type,
    render_type: v.renderType,
    position: v.position,
    filterable: v.filterable,
    searchable: v.searchable,
    mandatory: v.mandatory,
    value_type: v.valueType,
    custom_field_group: v.group
      ? {
          id: v.group.id,
          name: v.group.name,
          position: String(v.group.position),
          model: { id: v.group.model.id, label: v.group.model.label },
          type: v.group.type,
        }
      : null,
    options: v.options.map((o) => ({ id: o.id, label: o.label, value: o.value, position: o.position })),
    display_value: v.displayValue,
  }));
}
