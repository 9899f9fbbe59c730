import { entityCreate, entityDelete, entityQueries, entityUpdate } from '../shared/entity/index.js';
import { router } from '../trpc.js';
import { defaultService } from './defaultservice/defaultservice.entity.js';
import { createDefaultServiceInput, updateDefaultServiceInput } from './defaultservice/defaultservice.schema.js';
import { createDefaultService, updateDefaultService } from './defaultservice/defaultservice.write.js';

export const servicesRouter = router({
  defaultservice: router({
    ...entityQueries(defaultService),
    create: entityCreate(defaultService, createDefaultServiceInput, createDefaultService),
    update: entityUpdate(defaultService, updateDefaultServiceInput, updateDefaultService),
    delete: entityDelete(defaultService),
  }),
});
