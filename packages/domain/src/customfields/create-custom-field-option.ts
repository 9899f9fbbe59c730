import { SCOPED_ENVIRONMENT } from '@bo/db';
import type { EntityCreate } from '../shared/entity/index.js';
import { ValidationError } from '../shared/errors.js';
import { newEntityId } from '../shared/ids.js';
import type { CreateCustomFieldOptionInput } from './custom-field.schema.js';

/** An option of a dropdown or radio field, named by customFieldId; a field without options refuses it. */
export const createCustomFieldOption: EntityCreate<CreateCustomFieldOptionInput> = {
  async run({ tx }, input) {
    const field = await tx.customField.findFirst({ where: { id: input.customFieldId }, include: { type: true } });
    if (!field) {
      throw new ValidationError([
        { path: 'customFieldId', message: `no such record: ${input.customFieldId}`, code: 'not_found' },
      ]);
    }
    if (!field.type.hasOptions) {
      throw new ValidationError([
        { path: 'customFieldId', message: `a ${field.type.type} custom field has no options`, code: 'invalid_value' },
      ]);
    }
    const id = newEntityId('customfieldoption');
    await tx.customFieldOption.create({
      data: {
        id,
        environmentId: SCOPED_ENVIRONMENT,
        customFieldId: field.id,
        label: input.label,
        value: input.value ?? input.label,
        position: input.position ?? 0,
      },
    });
    return id;
  },
};
