import { entityCreate, entityDelete, entityQueries, entityUpdate } from '../shared/entity/index.js';
import { router } from '../trpc.js';
import { costType } from './coststype/coststype.entity.js';
import { expense } from './expense/expense.entity.js';
import { createExpenseInput, updateExpenseInput } from './expense/expense.schema.js';
import { createExpense, removeExpense, updateExpense } from './expense/expense.write.js';

export const costsRouter = router({
  coststype: router(entityQueries(costType)),
  /** expenses (issue 10): booked costs, read as costs/expense and hours/employeeexpenses */
  expense: router({
    ...entityQueries(expense),
    create: entityCreate(expense, createExpenseInput, createExpense),
    update: entityUpdate(expense, updateExpenseInput, updateExpense),
    delete: entityDelete(expense, removeExpense),
  }),
});
