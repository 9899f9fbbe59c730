import type { Db } from '../shared/resources/definition.js';
import { type CustomFieldRow, customFieldInclude, valueView } from './custom-field.view.js';

export type CustomFieldValueView = ReturnType<typeof valueView>;

/** The custom-field definitions of one model, in display order. */
export async function loadDefinitions(db: Db, modelKey: string): Promise<CustomFieldRow[]> {
  return db.customField.findMany({
    where: { modelKey },
    include: customFieldInclude,
    orderBy: [{ position: 'asc' }, { id: 'asc' }],
  });
}

/**
 * The v2 `custom_fields` list of every entity of a page, in a fixed number of
 * queries whatever the page size: the model's definitions once, the values of
 * all ids at once. Every defined field is listed; value null when unset.
 */
export async function loadCustomFields(db: Db, modelKey: string, ids: string[]): Promise<Map<string, CustomFieldValueView[]>> {
  const out = new Map<string, CustomFieldValueView[]>();
  if (ids.length === 0) return out;
  const definitions = await loadDefinitions(db, modelKey);
  const values =
    definitions.length === 0
      ? []
      : await db.customFieldValue.findMany({
          where: { entityId: { in: ids }, customFieldId: { in: definitions.map((d) => d.id) } },
        });
  const byKey = new Map(values.map((v) => [`${v.entityId}\u0000${v.customFieldId}`, v.value]));
  for (const id of ids) {
    out.set(
      id,
      definitions.map((d) => valueView(d, byKey.get(`${id}\u0000${d.id}`) ?? null)),
    );
  }
  return out;
}
