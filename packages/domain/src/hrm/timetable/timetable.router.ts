import { entityCreate, entityDelete, entityQueries, entityUpdate } from '../../shared/entity/index.js';
import { router } from '../../trpc.js';
import { timetable } from './timetable.entity.js';
import { createTimetableInput, updateTimetableInput } from './timetable.schema.js';
import { createTimetable, updateTimetable } from './timetable.write.js';

export const timetableRouter = router({
  ...entityQueries(timetable),
  create: entityCreate(timetable, createTimetableInput, createTimetable),
  update: entityUpdate(timetable, updateTimetableInput, updateTimetable),
  delete: entityDelete(timetable),
});
