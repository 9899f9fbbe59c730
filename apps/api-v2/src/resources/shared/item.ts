import { createSharedItemInput, type SharedItem, sharedItem, updateSharedItemInput } from '@bo/domain/items/shared-item.entity';
import { v2DateTime, v2Names } from '../v2-names.js';
import { v2Resource } from '../v2-resource.js';

/** shared/item: GET, POST, PUT and DELETE (reference GetSharedItem, PostSharedItem). */
export const sharedItemV2 = v2Resource<SharedItem>({
  path: 'shared/item',
  entity: sharedItem,
  inputs: { create: createSharedItemInput, update: updateSharedItemInput, remove: true },
  procedures: (c) => c.shared.item,
  names: v2Names(),
  read: (i) => ({
    id: i.id,
    tag: i.tag,
    type: i.type,
    employee_id: i.employeeId,
    shared: i.shared,
    data: i.data,
    created_at: v2DateTime(i.createdAt),
    updated_at: v2DateTime(i.updatedAt),
  }),
  // a fresh environment has no shared items: tests/shared-item.test.ts checks the shape
  conformance: false,
});
