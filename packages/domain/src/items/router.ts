import { entityCreate, entityDelete, entityQueries, entityUpdate } from '../shared/entity/index.js';
import { router } from '../trpc.js';
import { createSharedItemInput, sharedItem, updateSharedItemInput } from './shared-item.entity.js';
import { createSharedItem, updateSharedItem } from './shared-item.write.js';

export const sharedRouter = router({
  item: router({
    ...entityQueries(sharedItem),
    create: entityCreate(sharedItem, createSharedItemInput, createSharedItem),
    update: entityUpdate(sharedItem, updateSharedItemInput, updateSharedItem),
    delete: entityDelete(sharedItem),
  }),
});
