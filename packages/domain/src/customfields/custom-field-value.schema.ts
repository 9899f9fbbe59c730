import { z } from 'zod';

/**
 * One custom field of an entity with its value, as every entity with custom fields
 * embeds them: the definition (type, group, options) and the value with its display
 * value (the option's label). The names are those of the stored definitions.
 */
export const customFieldValueSchema = z.object({
  id: z.string(),
  name: z.string(),
  label: z.string(),
  value: z.string().nullable(),
  type: z.string(),
  render_type: z.string().nullable(),
  position: z.number(),
  filterable: z.boolean(),
  searchable: z.boolean(),
  mandatory: z.boolean(),
  value_type: z.string().nullable(),
  custom_field_group: z
    .object({
      id: z.string(),
      name: z.string(),
      position: z.string(),
      model: z.object({ id: z.string(), label: z.string() }),
      type: z.string().nullable(),
    })
    .nullable(),
  options: z.array(z.object({ id: z.string(), label: z.string(), value: z.string(), position: z.number() })),
  display_value: z.string().nullable(),
});
export type CustomFieldValue = z.infer<typeof customFieldValueSchema>;
