import { z } from 'zod';

/**
 * One custom field of an entity with its value, as every entity with custom fields
 * embeds them: the definition (type, group, options) and the value with its display
 * value (the option's label).
 */
export const customFieldValueSchema = z.object({
  id: z.string(),
  name: z.string(),
  label: z.string(),
  value: z.string().nullable(),
  type: z.string(),
  renderType: z.string().nullable(),
  position: z.number(),
  filterable: z.boolean(),
  searchable: z.boolean(),
  mandatory: z.boolean(),
  valueType: z.string().nullable(),
  group: z
    .object({
      id: z.string(),
      name: z.string(),
      position: z.number(),
      model: z.object({ id: z.string(), label: z.string() }),
      type: z.string().nullable(),
    })
    .nullable(),
  options: z.array(z.object({ id: z.string(), label: z.string(), value: z.string(), position: z.number() })),
  displayValue: z.string().nullable(),
});
export type CustomFieldValue = z.infer<typeof customFieldValueSchema>;
