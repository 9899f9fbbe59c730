import { entityCreate, entityDelete, entityQueries, entityUpdate } from '../shared/entity/index.js';
import { router } from '../trpc.js';
import { hourType } from './hourstype/hourstype.entity.js';
import { createHourTypeInput, updateHourTypeInput } from './hourstype/hourstype.schema.js';
import { createHourType, updateHourType } from './hourstype/hourstype.write.js';

export const hoursRouter = router({
  hourstype: router({
    ...entityQueries(hourType),
    create: entityCreate(hourType, createHourTypeInput, createHourType),
    update: entityUpdate(hourType, updateHourTypeInput, updateHourType),
    delete: entityDelete(hourType),
  }),
});
