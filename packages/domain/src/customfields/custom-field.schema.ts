import { z } from 'zod';
import { INT4_MAX, wholeNumberInput } from '../shared/numbers.js';

/** Defining a custom field of one model (our addition: the reference has only reads here). */
export const createCustomFieldInput = z.object({
  name: z.string().regex(/^[A-Za-z0-9_-]{1,100}$/, 'a name is 1 to 100 letters, digits, _ or -: filters address the field by it'),
  label: z.string().trim().min(1).max(255),
  /** the custom-field type's id or its `type` (text, integer, dropdown, …) */
  type: z.string().min(1),
  groupId: z.string().min(1).nullable().optional(),
  position: z.number().int().min(0).max(100_000).optional(),
  filterable: z.boolean().optional(),
  searchable: z.boolean().optional(),
  mandatory: z.boolean().optional(),
});
export type CreateCustomFieldInput = z.infer<typeof createCustomFieldInput>;

export const updateCustomFieldInput = z.object({
  label: z.string().trim().min(1).max(255).optional(),
  groupId: z.string().min(1).nullable().optional(),
  position: z.number().int().min(0).max(100_000).optional(),
  filterable: z.boolean().optional(),
  searchable: z.boolean().optional(),
  mandatory: z.boolean().optional(),
});
export type UpdateCustomFieldInput = z.infer<typeof updateCustomFieldInput>;

/** A group names its model as {id} or by modelId. */
const modelRef = z.object({ id: z.string().min(1) });
export const createCustomFieldGroupInput = z
  .object({
    name: z.string().trim().min(1).max(255),
    position: wholeNumberInput(0, INT4_MAX, 'position is a whole number').optional(),
    model: modelRef.optional(),
    modelId: z.string().min(1).optional(),
    type: z.string().max(255).nullable().optional(),
  })
  .refine((g) => g.model || g.modelId, { message: 'This value is required.', path: ['model'] });
export type CreateCustomFieldGroupInput = z.infer<typeof createCustomFieldGroupInput>;

export const updateCustomFieldGroupInput = z.object({
  name: z.string().trim().min(1).max(255).optional(),
  position: wholeNumberInput(0, INT4_MAX, 'position is a whole number').optional(),
  type: z.string().max(255).nullable().optional(),
});
export type UpdateCustomFieldGroupInput = z.infer<typeof updateCustomFieldGroupInput>;

/** An option names its field by customFieldId (2025-01). */
export const createCustomFieldOptionInput = z.object({
  customFieldId: z.string().min(1),
  label: z.string().trim().min(1).max(255),
  value: z.string().trim().min(1).max(255).optional(),
  position: z.number().int().min(0).max(100_000).optional(),
});
export type CreateCustomFieldOptionInput = z.infer<typeof createCustomFieldOptionInput>;

export const updateCustomFieldOptionInput = z.object({
  label: z.string().trim().min(1).max(255).optional(),
  value: z.string().trim().min(1).max(255).optional(),
  position: z.number().int().min(0).max(100_000).optional(),
});
export type UpdateCustomFieldOptionInput = z.infer<typeof updateCustomFieldOptionInput>;
