import { SCOPED_ENVIRONMENT } from '@bo/db';
import type { EntityCreate } from '../shared/entity/index.js';
import { ConflictError, ValidationError } from '../shared/errors.js';
import { newEntityId } from '../shared/ids.js';
import type { CreateCustomFieldInput } from './custom-field.schema.js';

/** Defines a custom field of one model; its group (checked to exist first) must be of that model. */
export function createCustomField(modelKey: string): EntityCreate<CreateCustomFieldInput> {
  return {
    async run({ tx }, input) {
      const model = await tx.customFieldModel.findFirst({ where: { key: modelKey } });
      if (!model) throw new ValidationError([{ path: '', message: `no custom-field model ${modelKey}`, code: 'not_found' }]);
      const type = await tx.customFieldType.findFirst({ where: { OR: [{ id: input.type }, { type: input.type }] } });
      if (!type) throw new ValidationError([{ path: 'type', message: `no custom-field type ${input.type}`, code: 'not_found' }]);
      if (input.groupId) {
        const group = await tx.customFieldGroup.findFirst({ where: { id: input.groupId } });
        if (group && group.modelId !== model.id) {
          throw new ValidationError([{ path: 'groupId', message: 'the group belongs to another model', code: 'invalid_value' }]);
        }
      }
      if (await tx.customField.findFirst({ where: { modelKey, name: input.name } })) {
        throw new ConflictError(`a ${modelKey} custom field named "${input.name}" exists already`);
      }
      const id = newEntityId('customfield');
      await tx.customField.create({
        data: {
          id,
          environmentId: SCOPED_ENVIRONMENT,
          modelId: model.id,
          modelKey,
          typeId: type.id,
          groupId: input.groupId ?? null,
          name: input.name,
          label: input.label,
          position: input.position ?? 0,
          filterable: input.filterable ?? true,
          searchable: input.searchable ?? true,
          mandatory: input.mandatory ?? false,
        },
      });
      return id;
    },
  };
}
