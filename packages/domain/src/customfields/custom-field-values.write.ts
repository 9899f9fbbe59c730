import { parseDateTime, type TenantReader } from '@bo/db';
import { z } from 'zod';
import { REQUIRED_MESSAGE, ValidationError, type Violation } from '../shared/errors.js';
import type { CustomFieldRow } from './custom-field.view.js';
import { readDefinitions } from './custom-field-values.load.js';

/** The custom-field values a write names: `[{name, value}]`; fields not named keep their value. */
export const customFieldValuesSchema = z
  .array(
    z.object({
      name: z.string().min(1),
      value: z
        .union([z.string().max(10_000), z.number(), z.boolean()])
        .nullable()
        .optional(),
    }),
  )
  .max(500)
  .optional();
export type CustomFieldValuesInput = z.infer<typeof customFieldValuesSchema>;

function asText(value: string | number | boolean | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const text = typeof value === 'string' ? value.trim() : String(value);
  return text === '' ? null : text;
}

/** Checks a value against its field's value type and options; answers the message, or null when fine. */
function invalidValue(field: CustomFieldRow, text: string): string | null {
  if (field.type.hasOptions && !field.options.some((o) => o.value === text)) {
    const allowed = field.options.map((o) => o.value).join(', ');
    return `"${text}" is not one of the options (${allowed || 'none defined'})`;
  }
  switch (field.type.valueType) {
    case 'Integer':
      return /^-?\d+$/.test(text) ? null : `"${text}" is not a whole number`;
    case 'Decimal':
      return /^-?\d+(\.\d+)?$/.test(text) ? null : `"${text}" is not a number`;
    case 'Date':
      return /^\d{4}-\d{2}-\d{2}$/.test(text) && parseDateTime(text) ? null : `"${text}" is not a date (YYYY-MM-DD)`;
    case 'Time':
      return /^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/.test(text) ? null : `"${text}" is not a time (HH:MM:SS)`;
    case 'DateTime':
      return parseDateTime(text) ? null : `"${text}" is not a date-time (YYYY-MM-DD HH:MM:SS)`;
    default:
      return null;
  }
}

/**
 * Validates and stores the custom-field values of one entity. Unknown names,
 * values of the wrong type or outside the options, and missing mandatory
 * fields are all reported at once. On create every mandatory field needs a
 * value; on update a mandatory field named in the write cannot be emptied
 * (fields left out keep their values). A null or empty value removes the value.
 */
export async function writeCustomFields(
  sql: TenantReader,
  modelKey: string,
  entityId: string,
  input: CustomFieldValuesInput,
  mode: 'create' | 'update',
): Promise<void> {
  const given = input ?? [];
  if (mode === 'update' && given.length === 0) return;
  // read once per write transaction (or before it): the event's re-read reuses them
  const definitions = await readDefinitions(sql, modelKey);
  const byName = new Map(definitions.map((d) => [d.name, d]));
  const violations: Violation[] = [];
  const values = new Map<string, string | null>();
  given.forEach((entry, i) => {
    const field = byName.get(entry.name);
    if (!field) {
      violations.push({ path: `custom_fields.${i}.name`, message: `no custom field named "${entry.name}"`, code: 'not_found' });
      return;
    }
    const text = asText(entry.value);
    const problem = text === null ? null : invalidValue(field, text);
    if (problem) violations.push({ path: `custom_fields.${entry.name}`, message: problem, code: 'invalid_value' });
    values.set(field.id, text);
  });
  for (const field of definitions) {
    if (!field.mandatory) continue;
    const named = values.has(field.id);
    const missing = named ? values.get(field.id) === null : mode === 'create';
    if (missing) violations.push({ path: `custom_fields.${field.name}`, message: REQUIRED_MESSAGE, code: 'required' });
  }
  if (violations.length) throw new ValidationError(violations);
  if (values.size === 0) return;
  const rows = [...values].filter((e): e is [string, string] => e[1] !== null);
  const emptied = [...values].filter(([, v]) => v === null).map(([customFieldId]) => customFieldId);
  // one statement: the emptied values go, the others are set (the two sets never overlap)
  await sql.queue(
    `WITH emptied AS (
       DELETE FROM custom_field_value WHERE environment_id = $1 AND entity_id = $2 AND custom_field_id = ANY($3::text[]))
     INSERT INTO custom_field_value (environment_id, custom_field_id, entity_id, value)
     SELECT $1, v.custom_field_id, $2, v.value FROM unnest($4::text[], $5::text[]) AS v(custom_field_id, value)
     ON CONFLICT (custom_field_id, entity_id) DO UPDATE SET value = EXCLUDED.value`,
    [entityId, emptied, rows.map(([id]) => id), rows.map(([, value]) => value)],
    { stablePlan: true },
  );
}

/** Removes an entity's values (its own rows are gone; values have no foreign key to it). */
export async function deleteCustomFieldValues(sql: TenantReader, entityId: string): Promise<void> {
  await sql.queue('DELETE FROM custom_field_value WHERE environment_id = $1 AND entity_id = $2', [entityId]);
}
