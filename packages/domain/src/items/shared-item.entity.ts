import { z } from 'zod';
import { employee } from '../hrm/employee/employee.entity.js';
import { defineEntity, f, type TargetEntity } from '../shared/entity/index.js';

/**
 * A shared item (v2 shared/item): a tagged, typed piece of text an integration keeps
 * in the environment (a saved view, a layout, a mapping), for one employee or for all.
 */
export const sharedItem = defineEntity({
  type: 'shareditem',
  table: 'shared_item',
  module: 'shared',
  nameField: 'tag',
  fields: {
    id: f.id(),
    tag: f.requiredString(),
    type: f.string(),
    employeeId: f.string({ references: (): TargetEntity => employee }),
    /** "private" (meant for its employee) or "shared" (meant for everyone) */
    shared: f.requiredString(),
    data: f.string({ filter: false, sort: false }),
    createdAt: f.createdAt(),
    updatedAt: f.updatedAt(),
  },
});
export type SharedItem = z.infer<typeof sharedItem.schema>;

export const SHARED_ITEM_VISIBILITY = ['private', 'shared'] as const;

const fields = {
  type: z.string().trim().max(255).nullable().optional(),
  employeeId: z.string().min(1).max(255).nullable().optional(),
  shared: z.enum(SHARED_ITEM_VISIBILITY, { error: `shared is one of ${SHARED_ITEM_VISIBILITY.join(', ')}` }).optional(),
  /** the item's content as text (JSON, say); a megabyte at most */
  data: z.string().max(1_000_000).nullable().optional(),
};
export const createSharedItemInput = z.strictObject({ tag: z.string().trim().min(1).max(255), ...fields });
export const updateSharedItemInput = z.strictObject({ tag: z.string().trim().min(1).max(255).optional(), ...fields });
export type CreateSharedItemInput = z.infer<typeof createSharedItemInput>;
export type UpdateSharedItemInput = z.infer<typeof updateSharedItemInput>;
