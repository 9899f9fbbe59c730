import { SCOPED_ENVIRONMENT } from '@bo/db';
import { z } from 'zod';
import { ConflictError, ValidationError } from '../shared/errors.js';
import type { EntityCreate, EntityUpdate, WriteContext } from '../shared/entity/index.js';
import { newEntityId } from '../shared/ids.js';
import { SALE_MODEL } from './sale-custom-field.entity.js';

/** Defining a custom field of sales (our addition: the reference has only reads here). */
const definitionFields = {
  label: z.string().trim().min(1).max(255),
  customFieldGroupId: z.string().min(1).nullable().optional(),
  position: z.number().int().min(0).max(100_000).optional(),
  filterable: z.boolean().optional(),
  searchable: z.boolean().optional(),
  mandatory: z.boolean().optional(),
};

export const createSaleCustomFieldInput = z.object({
  name: z.string().regex(/^[A-Za-z0-9_-]{1,100}$/, 'a name is 1 to 100 letters, digits, _ or -: filters address the field by it'),
  /** the custom-field type's id or its `type` (text, integer, dropdown, …) */
  type: z.string().min(1),
  ...definitionFields,
});
export type CreateSaleCustomFieldInput = z.infer<typeof createSaleCustomFieldInput>;

export const updateSaleCustomFieldInput = z.object({ ...definitionFields, label: definitionFields.label.optional() });
export type UpdateSaleCustomFieldInput = z.infer<typeof updateSaleCustomFieldInput>;

/** A group named by a definition must be a group of the sale model. */
async function assertSaleGroup({ tx }: WriteContext, modelId: string, groupId: string | null | undefined) {
  if (!groupId) return;
  const group = await tx.customFieldGroup.findFirst({ where: { id: groupId }, select: { modelId: true } });
  if (!group) {
    throw new ValidationError([{ path: 'customFieldGroupId', message: `no such record: ${groupId}`, code: 'not_found' }]);
  }
  if (group.modelId !== modelId) {
    throw new ValidationError([
      { path: 'customFieldGroupId', message: 'the group belongs to another model', code: 'invalid_value' },
    ]);
  }
}

export const createSaleCustomField: EntityCreate<CreateSaleCustomFieldInput> = {
  async run(w, input) {
    const { tx } = w;
    const model = await tx.customFieldModel.findFirst({ where: { key: SALE_MODEL } });
    if (!model) throw new ValidationError([{ path: '', message: `no custom-field model ${SALE_MODEL}`, code: 'not_found' }]);
    const type = await tx.customFieldType.findFirst({ where: { OR: [{ id: input.type }, { type: input.type }] } });
    if (!type) throw new ValidationError([{ path: 'type', message: `no custom-field type ${input.type}`, code: 'not_found' }]);
    await assertSaleGroup(w, model.id, input.customFieldGroupId);
    if (await tx.customField.findFirst({ where: { modelKey: SALE_MODEL, name: input.name }, select: { id: true } })) {
      throw new ConflictError(`a ${SALE_MODEL} custom field named "${input.name}" exists already`);
    }
    const id = newEntityId('customfield');
    await tx.customField.create({
      data: {
        id,
        environmentId: SCOPED_ENVIRONMENT,
        modelId: model.id,
        modelKey: SALE_MODEL,
        typeId: type.id,
        groupId: input.customFieldGroupId ?? null,
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

export const updateSaleCustomField: EntityUpdate<UpdateSaleCustomFieldInput> = {
  async run(w, id, input) {
    const field = await w.tx.customField.findFirstOrThrow({ where: { id }, select: { modelId: true } });
    await assertSaleGroup(w, field.modelId, input.customFieldGroupId);
    await w.tx.customField.update({
      where: { id },
      data: {
        label: input.label,
        groupId: input.customFieldGroupId,
        position: input.position,
        filterable: input.filterable,
        searchable: input.searchable,
        mandatory: input.mandatory,
        updatedAt: w.now,
      },
    });
  },
};
