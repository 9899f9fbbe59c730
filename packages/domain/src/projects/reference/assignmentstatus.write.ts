import type { EntityCreate, EntityUpdate } from '../../shared/entity/index.js';
import { newEntityId } from '../../shared/ids.js';
import type { CreateAssignmentStatusInput, UpdateAssignmentStatusInput } from './assignmentstatus.entity.js';

/** A new status goes last unless its place is given. */
export const createAssignmentStatus: EntityCreate<CreateAssignmentStatusInput> = {
  async run({ sql, now }, input) {
    const id = newEntityId('assignmentstatus');
    // the last place is found by PostgreSQL in the INSERT itself: nothing read back, one round trip
    await sql.queue(
      `INSERT INTO assignment_status (environment_id, id, name, color, is_done, is_blocked, position, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6,
               COALESCE($7::int, (SELECT COALESCE(max(s.position), -1) + 1 FROM assignment_status s WHERE s.environment_id = $1)),
               $8, $8)`,
      [id, input.name, input.color ?? null, input.isDone ?? false, input.isBlocked ?? false, input.position ?? null, now],
    );
    return id;
  },
};

export const updateAssignmentStatus: EntityUpdate<UpdateAssignmentStatusInput> = {
  async run({ sql, now }, id, input) {
    await sql.update('assignment_status', id, {
      name: input.name,
      color: input.color,
      is_done: input.isDone,
      is_blocked: input.isBlocked,
      position: input.position,
      updated_at: now,
    });
  },
};
