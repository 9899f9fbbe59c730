import { z } from 'zod';
import { INT4_MAX, wholeNumberInput } from '../shared/numbers.js';

/** Defining a custom field of one model (our addition: the reference has only reads here). */
export const createCustomFieldSchema = z.object({
  name: z.string().regex(/^[A-Za-z0-9_-]{1,100}$/, 'a name is 1 to 100 letters, digits, _ or -: filters address the field by it'),
  label: z.string().trim().min(1).max(255),
  /** the custom-field type's id or its `type` (text, integer, dropdown, …) */
  type: z.string().min(1),
  custom_field_group_id: z.string().min(1).nullable().optional(),
  position: z.number().int().min(0).max(100_000).optional(),
  filterable: z.boolean().optional(),
  searchable: z.boolean().optional(),
  mandatory: z.boolean().optional(),
});
export type CreateCustomFieldInput = z.infer<typeof createCustomFieldSchema>;

export const updateCustomFieldSchema = z.object({
  label: z.string().trim().min(1).max(255).optional(),
  custom_field_group_id: z.string().min(1).nullable().optional(),
  position: z.number().int().min(0).max(100_000).optional(),
  filterable: z.boolean().optional(),
  searchable: z.boolean().optional(),
  mandatory: z.boolean().optional(),
});
export type UpdateCustomFieldInput = z.infer<typeof updateCustomFieldSchema>;

/** reference: CustomFieldGroup; the model as {id} (or model_id) */
const modelRef = z.object({ id: z.string().min(1) });
export const createCustomFieldGroupSchema = z
  .object({
    name: z.string().trim().min(1).max(255),
    position: wholeNumberInput(0, INT4_MAX, 'position is a whole number').optional(),
    model: modelRef.optional(),
    model_id: z.string().min(1).optional(),
    type: z.string().max(255).nullable().optional(),
  })
  .refine((g) => g.model || g.model_id, { message: 'This value is required.', path: ['model'] });
export type CreateCustomFieldGroupInput = z.infer<typeof createCustomFieldGroupSchema>;

export const updateCustomFieldGroupSchema = z.object({
  name: z.string().trim().min(1).max(255).optional(),
  position: wholeNumberInput(0, INT4_MAX, 'position is a whole number').optional(),
  type: z.string().max(255).nullable().optional(),
});
export type UpdateCustomFieldGroupInput = z.infer<typeof updateCustomFieldGroupSchema>;

/** reference: CustomFieldOption; POST takes customfield_id (2025-01) */
export const createCustomFieldOptionSchema = z.object({
  customfield_id: z.string().min(1),
  label: z.string().trim().min(1).max(255),
  value: z.string().trim().min(1).max(255).optional(),
  position: z.number().int().min(0).max(100_000).optional(),
});
export type CreateCustomFieldOptionInput = z.infer<typeof createCustomFieldOptionSchema>;

export const updateCustomFieldOptionSchema = z.object({
  label: z.string().trim().min(1).max(255).optional(),
  value: z.string().trim().min(1).max(255).optional(),
  position: z.number().int().min(0).max(100_000).optional(),
});
export type UpdateCustomFieldOptionInput = z.infer<typeof updateCustomFieldOptionSchema>;
