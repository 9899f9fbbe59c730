import { BadRequestError, type Comparison, type Condition, parseDateTime } from '@bo/domain';
import type { ListFilter } from './endpoints/types.js';

export const V3_DEFAULT_ITEMS_PER_PAGE = 30;
export const V3_MAX_ITEMS_PER_PAGE = 30;

/** Pages beyond this would start past 2^53 records: no such page can exist. */
export const V3_MAX_PAGE = Math.floor(Number.MAX_SAFE_INTEGER / V3_MAX_ITEMS_PER_PAGE);

function positiveInteger(name: string, raw: string | null, fallback: number, max: number): number {
  if (raw === null) return fallback;
  if (!/^\d+$/.test(raw.trim())) throw new BadRequestError(`${name} must be a positive integer`, name);
  // compared as text first: a number of many digits is out of range, not rounded into it
  const digits = raw.trim().replace(/^0+(?=\d)/, '');
  if (digits.length > String(max).length || Number(digits) > max) {
    throw new BadRequestError(`${name} must be between 1 and ${max}`, name);
  }
  return Number(digits);
}

/** `page` from 1, `itemsPerPage` 1..30 (default 30); anything else is a clear 400. */
export function parsePaging(params: URLSearchParams): { page: number; itemsPerPage: number } {
  const page = positiveInteger('page', params.get('page'), 1, V3_MAX_PAGE);
  if (page < 1) throw new BadRequestError('page starts at 1', 'page');
  const itemsPerPage = positiveInteger(
    'itemsPerPage',
    params.get('itemsPerPage'),
    V3_DEFAULT_ITEMS_PER_PAGE,
    V3_MAX_ITEMS_PER_PAGE,
  );
  if (itemsPerPage < 1 || itemsPerPage > V3_MAX_ITEMS_PER_PAGE) {
    throw new BadRequestError(`itemsPerPage must be between 1 and ${V3_MAX_ITEMS_PER_PAGE}`, 'itemsPerPage');
  }
  return { page, itemsPerPage };
}

/** `name=a` → ['a']; `name[]=a&name[]=b` → ['a', 'b']; unknown parameters are refused. */
export function parseFilters(params: URLSearchParams, allowed: string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [rawKey, value] of params) {
    if (rawKey === 'page' || rawKey === 'itemsPerPage') continue;
    const key = rawKey.endsWith('[]') ? rawKey.slice(0, -2) : rawKey;
    if (!allowed.includes(key)) {
      throw new BadRequestError(
        `unknown query parameter "${rawKey}"; this endpoint takes page, itemsPerPage${allowed.map((a) => `, ${a}`).join('')}`,
        rawKey,
      );
    }
    out.set(key, [...(out.get(key) ?? []), value]);
  }
  return out;
}

/** The one value of a filter that takes one (a date when `date`), or a 400 naming the parameter. */
function oneValue(name: string, values: string[], date: boolean): string {
  const [value] = values;
  if (values.length !== 1 || value === undefined || value === '' || (date && !parseDateTime(value))) {
    throw new BadRequestError(`${name} takes one ${date ? 'date (YYYY-MM-DD)' : 'value'}`, name);
  }
  // a date's time part (and offset) is dropped: the day as written
  return date ? value.trim().slice(0, 10) : value;
}

/**
 * The parsed filters (parseFilters) as a condition over the domain's paths, in the order the
 * parameters came: a path's `name=` is `eq`, several values are `in`; a one-value filter is
 * checked here (`date[ge] takes one date`) and compared by its operator.
 */
export function listCondition(filters: Map<string, string[]>, meanings: Record<string, ListFilter>): Condition | undefined {
  const and: Comparison[] = [];
  for (const [name, values] of filters) {
    const meaning = Object.hasOwn(meanings, name) ? meanings[name] : undefined;
    if (meaning === undefined || typeof meaning === 'string') {
      const path = meaning ?? name;
      and.push(values.length === 1 ? { path, op: 'eq', value: values[0] ?? '' } : { path, op: 'in', value: values });
    } else {
      and.push({ path: meaning.path, op: meaning.op ?? 'eq', value: oneValue(name, values, meaning.value === 'date') });
    }
  }
  return and.length ? { and } : undefined;
}
