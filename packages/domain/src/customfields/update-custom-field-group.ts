import type { WriteContext } from '../shared/resources/definition.js';
import type { UpdateCustomFieldGroupInput } from './custom-field.schema.js';

export async function updateCustomFieldGroup({ tx, now }: WriteContext, id: string, input: UpdateCustomFieldGroupInput) {
  await tx.customFieldGroup.update({
    where: { id },
    data: {
      name: input.name,
      position: input.position === undefined ? undefined : Number(input.position),
      type: input.type,
      updatedAt: now,
    },
  });
}
