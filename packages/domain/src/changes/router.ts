import { router, userProcedure } from '../trpc.js';
import { changePageSchema, listChangesSchema } from './change.schema.js';
import { listChanges } from './list-changes.js';

/**
 * The change feed (issue 29, section 2). Any token may read it; what it shows is narrowed to
 * the modules the token may read, per entity type, in the query itself.
 */
export const changesRouter = router({
  change: router({
    list: userProcedure
      .input(listChangesSchema)
      .output(changePageSchema)
      .query(({ ctx, input }) => listChanges(ctx, input)),
  }),
});
