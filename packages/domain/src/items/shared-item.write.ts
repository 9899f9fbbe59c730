import { SCOPED_ENVIRONMENT } from '@bo/db';
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
  async run({ tx, now }, input) {
    const shared = input.shared ?? 'shared';
    assertOwner(shared, input.employeeId);
    const id = newEntityId('shareditem');
    await tx.sharedItem.create({
      data: {
        id,
        environmentId: SCOPED_ENVIRONMENT,
        tag: input.tag,
        type: input.type ?? null,
        employeeId: input.employeeId ?? null,
        shared,
        data: input.data ?? null,
        createdAt: now,
        updatedAt: now,
      },
    });
    return id;
  },
};

export const updateSharedItem: EntityUpdate<UpdateSharedItemInput> = {
  async run({ tx, now }, id, input) {
    const current = await tx.sharedItem.findFirstOrThrow({ where: { id } });
    assertOwner(input.shared ?? current.shared, input.employeeId === undefined ? current.employeeId : input.employeeId);
    await tx.sharedItem.update({ where: { id }, data: { ...input, updatedAt: now } });
  },
};
