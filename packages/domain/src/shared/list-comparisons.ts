import { type Comparison, type Condition, isComparison, type Operator, type SortKey } from '@bo/db';
import { BadRequestError } from './errors.js';

/** Comparisons of one list query a hand-read list takes at most (an entity's list has its own limits). */
const MAX_COMPARISONS = 50;

/**
 * The comparisons of a list query's `where`, for a list that is not read through an entity
 * declaration (a grouped read, a table of the service's own): an `and` of comparisons
 * (nested `and`s flattened), each on a path the list names, with an operator it allows for
 * that path; an `or`, another path or another operator is a 400 naming the path.
 */
export function comparisonsOf(
  list: string,
  where: Condition | undefined,
  allowed: Readonly<Record<string, readonly Operator[]>>,
): Comparison[] {
  const out: Comparison[] = [];
  const stack: Condition[] = where ? [where] : [];
  while (stack.length) {
    const c = stack.pop() as Condition;
    if (isComparison(c)) {
      const ops = Object.hasOwn(allowed, c.path) ? allowed[c.path] : undefined;
      if (!ops) {
        const paths = Object.keys(allowed);
        throw new BadRequestError(
          `${list} cannot be filtered by ${c.path}${paths.length ? `; filters: ${paths.join(', ')}` : ''}`,
          c.path,
        );
      }
      if (!ops.includes(c.op)) {
        throw new BadRequestError(`${list}: ${c.path} is compared by ${ops.join(', ')}, not ${c.op}`, c.path);
      }
      out.push(c);
      if (out.length > MAX_COMPARISONS) {
        throw new BadRequestError(`${list}: at most ${MAX_COMPARISONS} comparisons are taken`, c.path);
      }
    } else if ('and' in c) {
      // reversed onto the stack: the comparisons come out in the order they were written
      for (let i = c.and.length - 1; i >= 0; i -= 1) stack.push(c.and[i] as Condition);
    } else {
      throw new BadRequestError(`${list} take no "or" condition`);
    }
  }
  return out;
}

/** The values a comparison admits, compared as written (no wildcard): `eq` its one value, `in` its list. */
export function valuesOf(c: Comparison): string[] {
  if (c.op === 'eq') return [Array.isArray(c.value) ? (c.value[0] ?? '') : c.value];
  return Array.isArray(c.value) ? c.value : [c.value];
}

/** A hand-read list has one order of its own: a list query asking for another is a 400. */
export function assertOwnOrder(list: string, orderBy: readonly SortKey[]): void {
  if (orderBy.length > 0) throw new BadRequestError(`${list} come in one order of their own; orderBy is not taken`, 'orderBy');
}
