import type { CustomFieldValue } from '@bo/domain/customfields/custom-field-value.schema';

type Group = NonNullable<CustomFieldValue['group']>;
type Options = CustomFieldValue['options'];

// A field's group and options are one object shared by every row of a page (customFieldViews):
// their v2 forms are made once per object, not once per row, and frozen like them
const groups = new WeakMap<Group, Record<string, unknown>>();
const optionLists = new WeakMap<Options, readonly object[]>();

function groupV2(g: Group): Record<string, unknown> {
  let out = groups.get(g);
  if (!out) {
    out = Object.freeze({
      id: g.id,
      name: g.name,
      position: String(g.position),
      model: Object.freeze({ id: g.model.id, label: g.model.label }),
      type: g.type,
    });
    groups.set(g, out);
  }
  return out;
}

function optionsV2(options: Options): readonly object[] {
  let out = optionLists.get(options);
  if (!out) {
    out = Object.freeze(options.map((o) => Object.freeze({ id: o.id, label: o.label, value: o.value, position: o.position })));
    optionLists.set(options, out);
  }
  return out;
}

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
    custom_field_group: v.group ? groupV2(v.group) : null,
    options: optionsV2(v.options),
    display_value: v.displayValue,
  }));
}
