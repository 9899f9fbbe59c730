import { BadRequestError } from '@bo/domain';

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
