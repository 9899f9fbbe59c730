import { entityCreate, entityDelete, entityQueries, entityUpdate } from '../shared/entity/index.js';
import { router } from '../trpc.js';
import { mileage } from './mileage.entity.js';
import { createMileageInput, updateMileageInput } from './mileage.schema.js';
import { createMileage, removeMileage, updateMileage } from './mileage.write.js';

/** Mileage (issue 10): v2 mileage/mileage and hours/mileage. */
export const mileageRouter = router({
  mileage: router({
    ...entityQueries(mileage),
    create: entityCreate(mileage, createMileageInput, createMileage),
    update: entityUpdate(mileage, updateMileageInput, updateMileage),
    delete: entityDelete(mileage, removeMileage),
  }),
});
