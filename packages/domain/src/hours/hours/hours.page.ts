import { type Comparison, type Condition, parseDateTime } from '@bo/db';
import { z } from 'zod';
import { listEntity } from '../../shared/entity/index.js';
import { BadRequestError } from '../../shared/errors.js';
import type { UserContext } from '../../trpc.js';
import { type Hours, hours } from './hours.entity.js';

/** A page of a v3 query: `page`, `itemsPerPage` and its filters by name (`employeeId`, `date[ge]`, …). */
export const hoursPageInput = z.object({
  page: z.number().int().min(1),
  itemsPerPage: z.number().int().min(1).max(30),
  filters: z.record(z.string(), z.array(z.string())).default({}),
});
export type HoursPageInput = z.infer<typeof hoursPageInput>;

export const HOURS_PAGE_FILTERS = ['employeeId', 'projectId', 'date[ge]', 'date[le]'] as const;

function dateFilter(name: string, values: string[]): string {
  const [value] = values;
  if (values.length !== 1 || value === undefined || !parseDateTime(value)) {
    throw new BadRequestError(`${name} takes one date (YYYY-MM-DD)`, name);
  }
  return value.slice(0, 10);
}

/** The filters of hours.list and timesheet.list as a condition over the hours' domain paths. */
export function hoursFilterCondition(filters: Record<string, string[]>): Condition | undefined {
  const and: Comparison[] = [];
  for (const [name, values] of Object.entries(filters)) {
    if (name === 'employeeId' || name === 'projectId') {
      and.push(values.length === 1 ? { path: name, op: 'eq', value: values[0] ?? '' } : { path: name, op: 'in', value: values });
    } else if (name === 'date[ge]') and.push({ path: 'startDate', op: 'ge', value: dateFilter(name, values) });
    else if (name === 'date[le]') and.push({ path: 'startDate', op: 'le', value: dateFilter(name, values) });
    else throw new BadRequestError(`unknown filter ${name}`, name);
  }
  return and.length ? { and } : undefined;
}

/** hours.list of v3: filtered, sorted by day, paged and counted in SQL. */
export async function hoursPage(ctx: UserContext, input: HoursPageInput) {
  const where = hoursFilterCondition(input.filters);
  const result = await listEntity(ctx, hours, {
    ...(where ? { where } : {}),
    orderBy: [
      { path: 'startDate', dir: 'asc' },
      { path: 'id', dir: 'asc' },
    ],
    offset: (input.page - 1) * input.itemsPerPage,
    limit: input.itemsPerPage,
    count: true,
  });
  const total = result.count ?? 0;
  return {
    items: result.items as Hours[],
    page: input.page,
    itemsPerPage: input.itemsPerPage,
    totalItems: total,
    totalPages: Math.ceil(total / input.itemsPerPage),
  };
}
