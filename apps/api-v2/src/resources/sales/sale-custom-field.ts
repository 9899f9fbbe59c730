import type { SaleCustomField, SaleCustomFieldGroup } from '@bo/domain/sales/sale-custom-field.entity';
import { v2Names } from '../v2-names.js';
import { v2Resource } from '../v2-resource.js';

const names = v2Names();

/** reference: CustomFieldGroup (position is a string there) */
function groupV2(g: Pick<SaleCustomFieldGroup, 'id' | 'name' | 'position' | 'model' | 'type'>): Record<string, unknown> {
  return {
    id: g.id,
    name: g.name,
    position: String(g.position),
    model: g.model ? { id: g.model.id, label: g.model.label } : null,
    type: g.type,
  };
}

/** reference: CustomField (the definition; value null, as no sale is read) */
function definitionV2(d: SaleCustomField): Record<string, unknown> {
  const group = d.customFieldGroup && 'position' in d.customFieldGroup ? d.customFieldGroup : null;
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
    custom_field_group: group ? groupV2(group) : null,
    options: d.options.map((o) => ({ id: o.id, label: o.label, value: o.value, position: o.position })),
  };
}

/** sales/salescustomfields: the sale model's definitions; POST, PUT and DELETE are our addition. */
export const saleCustomFieldV2 = v2Resource<SaleCustomField>({
  path: 'sales/salescustomfields',
  procedures: (c) => c.sales.salescustomfields,
  names,
  read: definitionV2,
});

/** sales/salescustomfieldgroups: the sale model's groups, read only. */
export const saleCustomFieldGroupV2 = v2Resource<SaleCustomFieldGroup>({
  path: 'sales/salescustomfieldgroups',
  procedures: (c) => c.sales.salescustomfieldgroups,
  names,
  read: groupV2,
});
