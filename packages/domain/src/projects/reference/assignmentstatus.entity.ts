import { z } from 'zod';
import { defineEntity, f } from '../../shared/entity/index.js';

/** A status an assignment moves through; a done status says the planned work is finished. */
export const assignmentStatus = defineEntity({
  type: 'assignmentstatus',
  table: 'assignment_status',
  module: 'projects',
  nameField: 'name',
  defaultSort: [
    { path: 'position', dir: 'asc' },
    { path: 'id', dir: 'asc' },
  ],
  fields: {
    id: f.id(),
    name: f.requiredString(),
    color: f.string(),
    isDone: f.boolean(),
    isBlocked: f.boolean(),
    /** the order the statuses are offered in */
    position: f.requiredInteger(),
    createdAt: f.createdAt(),
    updatedAt: f.updatedAt(),
  },
});
export type AssignmentStatus = z.infer<typeof assignmentStatus.schema>;

/** How an assignment embeds its status. */
export const assignmentStatusShape = z.object({
  id: z.string(),
  name: z.string(),
  color: z.string().nullable(),
  isDone: z.boolean(),
  isBlocked: z.boolean(),
  position: z.number(),
});

const fields = {
  color: z
    .string()
    .regex(/^#[0-9a-fA-F]{6}$/, 'a colour is written #rrggbb')
    .nullable()
    .optional(),
  isDone: z.boolean().optional(),
  isBlocked: z.boolean().optional(),
  position: z.number().int().min(0).max(10_000).optional(),
};
export const createAssignmentStatusInput = z.strictObject({ name: z.string().trim().min(1).max(255), ...fields });
export const updateAssignmentStatusInput = z.strictObject({ name: z.string().trim().min(1).max(255).optional(), ...fields });
export type CreateAssignmentStatusInput = z.infer<typeof createAssignmentStatusInput>;
export type UpdateAssignmentStatusInput = z.infer<typeof updateAssignmentStatusInput>;
