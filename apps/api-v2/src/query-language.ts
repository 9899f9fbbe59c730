import type { Comparison, Condition, Operator, SortKey } from '@bo/domain';
import { assertSelectSize, assertSortSize, BadRequestError, listLimits } from '@bo/domain';
import { unaliasedPath } from './resources/v2-read-aliases.js';

/**
 * Parses v2 collection parameters from the raw query string into the shared
 * list-query model. The raw string is read (not a generic parser's object) so
 * that `q[a.b.c]`, repeated keys and `q[or][…]` keep their exact meaning.
 */
export interface V2ListParams {
  where?: Condition;
  orderBy: SortKey[];
  limit: number;
  offset: number;
  metadata: Set<'count' | 'limit' | 'offset'>;
  select?: string[];
}

export const V2_DEFAULT_LIMIT = 100;
export const V2_MAX_LIMIT = 100;

const Q_KEY = /^q\[(?:(or)\]\[)?([^[\]]+)\](?:\[([a-z]*)\])?$/;
const V2_OPERATORS: Record<string, Operator> = { '': 'eq', ge: 'ge', gt: 'gt', le: 'le', lt: 'lt', in: 'in', nin: 'nin' };

function nonNegativeInteger(name: string, raw: string): number {
  if (!/^\d+$/.test(raw.trim())) throw new BadRequestError(`${name}: "${raw}" is not a non-negative integer`, name);
  const n = Number(raw);
  // beyond 2^53 a number no longer says which row; PostgreSQL would refuse it anyway
  if (!Number.isSafeInteger(n)) throw new BadRequestError(`${name}: "${raw}" is too large`, name);
  return n;
}

/** `select=a,b.c,d.`: the paths, within the limits of their number and depth. */
export function parseSelect(value: string): string[] {
  const paths = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  assertSelectSize(paths);
  return paths;
}

export function parseListParams(rawQuery: string): V2ListParams {
  const params = new URLSearchParams(rawQuery);
  // one entry per field (and or-group): its comparisons are OR-ed when several values are given
  const groups = new Map<string, { or: boolean; comparisons: Comparison[] }>();
  let limit = V2_DEFAULT_LIMIT;
  let offset = 0;
  const metadata = new Set<'count' | 'limit' | 'offset'>();
  let orderBy: SortKey[] = [];
  let select: string[] | undefined;

  let conditions = 0;
  for (const [key, value] of params) {
    if (key.startsWith('q[')) {
      // refused while reading, before a long query string is turned into a large filter
      conditions += 1;
      const max = listLimits().maxConditions;
      if (conditions > max) {
        throw new BadRequestError(`q: more than ${max} conditions; at most ${max} are allowed (limit: conditions)`, 'q');
      }
      const m = Q_KEY.exec(key);
      if (!m) throw new BadRequestError(`${key}: not a filter; use q[field], q[field][op] or q[or][field]`, key);
      const [, orFlag, aliased = '', opRaw] = m;
      // a read alias (`modified`) filters as the field it names (`updated_at`)
      const path = unaliasedPath(aliased);
      const op = opRaw === undefined ? 'eq' : Object.hasOwn(V2_OPERATORS, opRaw) ? V2_OPERATORS[opRaw] : undefined;
      if (!op) throw new BadRequestError(`${key}: unknown operator "${opRaw}"; use ge, gt, le, lt, in or nin`, key);
      const comparison: Comparison =
        op === 'in' || op === 'nin'
          ? {
              path,
              op,
              value: value
                .split(',')
                .map((v) => v.trim())
                .filter((v) => v !== ''),
            }
          : { path, op, value };
      if ((op === 'in' || op === 'nin') && (comparison.value as string[]).length === 0) {
        throw new BadRequestError(`${key}: give a comma-separated list of values`, key);
      }
      const groupKey = `${orFlag ? 'or:' : ''}${path}:${op}`;
      const group = groups.get(groupKey) ?? { or: Boolean(orFlag), comparisons: [] };
      group.comparisons.push(comparison);
      groups.set(groupKey, group);
      continue;
    }
    switch (key) {
      case 'limit': {
        // any integer above the maximum, however large, is cut to the maximum
        const n =
          /^\d+$/.test(value.trim()) && BigInt(value.trim()) > BigInt(V2_MAX_LIMIT)
            ? V2_MAX_LIMIT
            : nonNegativeInteger('limit', value);
        if (n === 0) throw new BadRequestError('limit: must be at least 1', 'limit');
        // above the maximum the page is cut to the maximum; metadata.limit says so
        limit = Math.min(n, V2_MAX_LIMIT);
        break;
      }
      case 'offset':
        offset = nonNegativeInteger('offset', value);
        break;
      case 'metadata':
        for (const part of value
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)) {
          if (part !== 'count' && part !== 'limit' && part !== 'offset') {
            throw new BadRequestError(`metadata: unknown value "${part}"; use count, limit, offset`, 'metadata');
          }
          metadata.add(part);
        }
        break;
      case 'sort':
        orderBy = value
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
          .map((s) =>
            s.startsWith('-')
              ? { path: unaliasedPath(s.slice(1)), dir: 'desc' as const }
              : { path: unaliasedPath(s.replace(/^\+/, '')), dir: 'asc' as const },
          );
        if (orderBy.some((k) => k.path === '')) throw new BadRequestError('sort: empty field name', 'sort');
        assertSortSize(orderBy);
        break;
      case 'select':
        select = parseSelect(value);
        break;
      default:
      // other parameters are not part of the collection language and are ignored, as v2 always has
    }
  }

  const and: Condition[] = [];
  const or: Condition[] = [];
  for (const g of groups.values()) {
    const cond: Condition = g.comparisons.length === 1 ? (g.comparisons[0] as Comparison) : { or: g.comparisons };
    (g.or ? or : and).push(cond);
  }
  let where: Condition | undefined;
  if (or.length === 0) where = and.length ? { and } : undefined;
  else if (and.length === 0) where = { or };
  // q[or][…] conditions are OR-ed against the AND of all the others
  else where = { or: [{ and }, ...or] };

  return { where, orderBy, limit, offset, metadata, select };
}
