import { entityCreate, entityCreateCommand, entityDelete, entityQueries, entityUpdate } from '../../shared/entity/index.js';
import { moduleProcedure, router } from '../../trpc.js';
import { absence } from './absence.entity.js';
import { closeAbsenceInput, createAbsenceInput, updateAbsenceInput } from './absence.schema.js';
import { closeAbsence, createAbsence, updateAbsence } from './absence.write.js';

export const absenceRouter = router({
  ...entityQueries(absence),
  create: entityCreate(absence, createAbsenceInput, createAbsence),
  update: entityUpdate(absence, updateAbsenceInput, updateAbsence),
  delete: entityDelete(absence),
  /** v3 absence.report: the same write, answering the absence */
  report: entityCreateCommand(absence, createAbsenceInput, createAbsence),
  close: moduleProcedure('hrm', 'write')
    .input(closeAbsenceInput)
    .output(absence.schema)
    .mutation(({ ctx, input }) => closeAbsence(ctx, input.id, input.endDate)),
});
