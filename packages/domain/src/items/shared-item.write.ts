import type { EntityCreate, EntityUpdate } from '../shared/entity/index.js';
import { ValidationError } from '../shared/errors.js';
import { newEntityId } from '../shared/ids.js';
import type { CreateSharedItemInput, UpdateSharedItemInput } from './shared-item.entity.js';

/** A private item belongs to an employee: without one it could be nobody's. */
function assertOwner(shared: string, employeeId: string | null | undefined) {
  if (shared === 'private' && !employeeId) {
    throw new ValidationError([
      { path: 'employeeId', message: 'A private item names the employee it belongs to.', code: 'required' },
    ]);
  }
}

export const createSharedItem: EntityCreate<CreateSharedItemInput> = {
  // the row and its event through the transaction's reader, queued: one round trip
  async run({ sql, now }, input) {
    const shared = input.shared ?? 'shared';
    assertOwner(shared, input.employeeId);
    const id = newEntityId('shareditem');
    await sql.insert('shared_item', {
      id,
      tag: input.tag,
      type: input.type ?? null,
      employee_id: input.employeeId ?? null,
      shared,
      data: input.data ?? null,
      created_at: now,
      updated_at: now,
    });
    return id;
  },
};

export const updateSharedItem: EntityUpdate<UpdateSharedItemInput> = {
  async run({ sql, now }, id, input) {
    // only a private item without an employee is refused: the row (locked by the update) is read
    // only when the update itself leaves that open
    if (input.shared !== 'shared' && !input.employeeId) {
      const [current] = await sql.read<{ shared: string; employeeId: string | null }>(
        'SELECT shared, employee_id AS "employeeId" FROM shared_item WHERE environment_id = $1 AND id = $2',
        [id],
      );
      if (current)
        assertOwner(input.shared ?? current.shared, input.employeeId === undefined ? current.employeeId : input.employeeId);
    }
    await sql.update('shared_item', id, {
      tag: input.tag,
      type: input.type,
      employee_id: input.employeeId,
      shared: input.shared,
      data: input.data,
      updated_at: now,
    });
  },
};
