import { BadRequestError } from '@bo/domain';
import {
  type AssignmentBudget,
  type AssignmentBudgetInput,
  assignmentBudgetInput,
} from '@bo/domain/projects/assignment/assignment-budget';
import { z } from 'zod';
import { v2Names } from '../v2-names.js';
import { v2Operation } from '../v2-operation.js';

const FILTERS: Record<string, 'rangeStart' | 'employeeId' | 'assignmentId'> = {
  'q[range_start]': 'rangeStart',
  'q[employee_id]': 'employeeId',
  'q[employee.id]': 'employeeId',
  'q[assignment_id]': 'assignmentId',
  'q[assignment.id]': 'assignmentId',
};

/**
 * The v2 parameters of projects/assignmentbudget (reference: q[range_start], q[employee_id],
 * q[assignment_id], offset, limit). Any other parameter is refused (400), not ignored.
 */
function params(raw: Record<string, string>): AssignmentBudgetInput {
  const out: AssignmentBudgetInput = {};
  for (const [key, value] of Object.entries(raw)) {
    const filter = FILTERS[key];
    const number = () => {
      if (!/^\d+$/.test(value)) throw new BadRequestError(`${key}: must be a whole number`, key);
      return Number(value);
    };
    if (filter) out[filter] = value;
    else if (key === 'limit') out.limit = Math.min(number(), 100);
    else if (key === 'offset') out.offset = number();
    else
      throw new BadRequestError(`${key}: projects/assignmentbudget filters on range_start, employee_id and assignment_id`, key);
  }
  return out;
}

/** reference AssignmentBudget */
const assignmentBudgetV2Schema = z.object({
  assignment_id: z.string(),
  range_start: z.string(),
  range_end: z.string(),
  budget_range_start: z.string().nullable(),
  budget_range_end: z.string().nullable(),
  planned_amount: z.number().nullable(),
  spent_amount: z.number(),
  hours_type: z.enum(['per_week', 'total']),
});

function assignmentBudgetRowV2(b: AssignmentBudget): z.infer<typeof assignmentBudgetV2Schema> {
  return {
    assignment_id: b.assignmentId,
    range_start: b.rangeStart,
    range_end: b.rangeEnd,
    budget_range_start: b.budgetRangeStart,
    budget_range_end: b.budgetRangeEnd,
    planned_amount: b.plannedAmount,
    spent_amount: b.spentAmount,
    hours_type: b.hoursType,
  };
}

/**
 * projects/assignmentbudget: per assignment running in the week of `q[range_start]` (this
 * week when absent), the hours planned against the hours booked: in that week for an
 * assignment planned per week, over its whole period for a total. One statement per page.
 */
export const assignmentBudgetV2 = v2Operation<{ items: AssignmentBudget[]; count: number }>({
  method: 'GET',
  path: 'projects/assignmentbudget',
  summary: 'Planned against spent hours per assignment, for a week',
  // the parameters keep their v2 spelling: params() reads them as they came
  names: v2Names(Object.fromEntries(Object.keys(FILTERS).map((k) => [k, k]))),
  call: (c) => (raw: never) => c.projects.assignment.budgets(params(raw as Record<string, string>)),
  input: assignmentBudgetInput,
  output: z.array(assignmentBudgetV2Schema),
  show: (o) => o.items.map(assignmentBudgetRowV2),
});
