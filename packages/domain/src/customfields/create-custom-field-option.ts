import { SCOPED_ENVIRONMENT } from '@bo/db';
import { ValidationError } from '../shared/errors.js';
import { newEntityId } from '../shared/ids.js';
import type { WriteContext } from '../shared/resources/definition.js';
import type { CreateCustomFieldOptionInput } from './custom-field.schema.js';

/** POST customfields/option: an option of a dropdown or radio field, named by customfield_id. */
export async function createCustomFieldOption({ tx }: WriteContext, input: CreateCustomFieldOptionInput): Promise<string> {
  const field = await tx.customField.findFirst({ where: { id: input.customfield_id }, include: { type: true } });
  if (!field) {
    throw new ValidationError([
      { path: 'customfield_id', message: `no such record: ${input.customfield_id}`, code: 'not_found' },
    ]);
  }
  if (!field.type.hasOptions) {
    throw new ValidationError([
      { path: 'customfield_id', message: `a ${field.type.type} custom field has no options`, code: 'invalid_value' },
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
}
