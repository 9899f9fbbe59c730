import type { WriteContext } from '../shared/resources/definition.js';
import type { UpdateCustomFieldOptionInput } from './custom-field.schema.js';

export async function updateCustomFieldOption({ tx, now }: WriteContext, id: string, input: UpdateCustomFieldOptionInput) {
  await tx.customFieldOption.update({
    where: { id },
    data: { label: input.label, value: input.value, position: input.position, updatedAt: now },
  });
}
