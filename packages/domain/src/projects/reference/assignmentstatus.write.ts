import { SCOPED_ENVIRONMENT } from '@bo/db';
import type { EntityCreate, EntityUpdate } from '../../shared/entity/index.js';
import { newEntityId } from '../../shared/ids.js';
import type { CreateAssignmentStatusInput, UpdateAssignmentStatusInput } from './assignmentstatus.entity.js';

/** A new status goes last unless its place is given. */
export const createAssignmentStatus: EntityCreate<CreateAssignmentStatusInput> = {
  async run({ tx, now }, input) {
    const id = newEntityId('assignmentstatus');
    const last = await tx.assignmentStatus.aggregate({ _max: { position: true } });
    await tx.assignmentStatus.create({
      data: {
        id,
        environmentId: SCOPED_ENVIRONMENT,
        name: input.name,
        color: input.color ?? null,
        isDone: input.isDone ?? false,
        isBlocked: input.isBlocked ?? false,
        position: input.position ?? (last._max.position ?? -1) + 1,
        createdAt: now,
        updatedAt: now,
      },
    });
    return id;
  },
};

export const updateAssignmentStatus: EntityUpdate<UpdateAssignmentStatusInput> = {
  async run({ tx, now }, id, input) {
    await tx.assignmentStatus.update({ where: { id }, data: { ...input, updatedAt: now } });
  },
};
