import { snakeCase } from './fields.js';

/**
 * A write's values by column name, from the domain's names (`vatNumber` → `vat_number`, the
 * tables' own convention): for TenantReader.insert. Undefined values stay undefined (the column
 * keeps its default).
 */
export function columnsOf(values: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(values)) out[snakeCase(name)] = value;
  return out;
}
