import { z } from 'zod';
import { entityCreate, entityCreateCommand, entityDelete, entityQueries, entityUpdate } from '../shared/entity/index.js';
import { moduleProcedure, router } from '../trpc.js';
import { timer } from './timer.entity.js';
import { createTimerInput, stopTimerInput, updateTimerInput } from './timer.schema.js';
import { createTimer, stopTimer, updateTimer } from './timer.write.js';

/** Timers (issue 10): v2 timers/timer, v3 timer.start and timer.stop. */
export const timersRouter = router({
  timer: router({
    ...entityQueries(timer),
    create: entityCreate(timer, createTimerInput, createTimer),
    update: entityUpdate(timer, updateTimerInput, updateTimer),
    delete: entityDelete(timer),
    start: entityCreateCommand(timer, createTimerInput.omit({ state: true }), createTimer),
    stop: moduleProcedure('hours', 'write')
      .input(z.object({ id: z.string().min(1), data: stopTimerInput }))
      .output(timer.schema)
      .mutation(({ ctx, input }) => stopTimer(ctx, input.id, input.data)),
  }),
});
