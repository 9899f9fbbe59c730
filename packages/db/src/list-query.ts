/**
 * The list-query model both wire versions compile to. v2 parses q[], sort,
 * limit/offset and metadata into it; v3 parses name=, name[]= and page/itemsPerPage.
 * Values stay strings until the compiler coerces them to the field's type.
 */
export type Operator = 'eq' | 'ge' | 'gt' | 'le' | 'lt' | 'in' | 'nin';

export const OPERATORS: readonly Operator[] = ['eq', 'ge', 'gt', 'le', 'lt', 'in', 'nin'];

export interface Comparison {
  path: string;
  op: Operator;
  /** eq: one value (may hold `*` wildcards, or be `null`); in/nin: the list */
  value: string | string[];
}

export type Condition = { and: Condition[] } | { or: Condition[] } | Comparison;

export interface SortKey {
  path: string;
  dir: 'asc' | 'desc';
}

export interface ListQuery {
  where?: Condition;
  orderBy: SortKey[];
  offset: number;
  limit: number;
  count: boolean;
}

export function isComparison(c: Condition): c is Comparison {
  return 'path' in c;
}
