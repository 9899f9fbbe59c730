import { entityCreate, entityQueries } from '../shared/entity/index.js';
import { router } from '../trpc.js';
import { costType } from './coststype/coststype.entity.js';
import { expense } from './expense/expense.entity.js';
import { createExpenseInput } from './expense/expense.schema.js';
import { createExpense } from './expense/expense.write.js';

export const costsRouter = router({
  coststype: router(entityQueries(costType)),
  /** expenses (issue 10): booked costs, read as costs/expense and hours/employeeexpenses */
  expense: router({
    ...entityQueries(expense),
    create: entityCreate(expense, createExpenseInput, createExpense),
  }),
});
