import type { EntityTransaction } from './entity/transaction.js';
import { SCOPED_ENVIRONMENT } from '@bo/db';
import { uuidv7 } from './ids.js';

export type ChangeKind = 'created' | 'updated' | 'deleted';

/**
 * The version of event payloads: `data` is the entity as its domain output schema
 * defines it (never a wire view). A change that breaks that shape raises it.
 */
export const EVENT_PAYLOAD_VERSION = 1;

/**
 * Writes the event of a change into the outbox inside the change's own
 * transaction: a rolled-back change leaves no event, a committed one always has one.
 */
export async function recordEvent(
  tx: EntityTransaction,
  e: { entityType: string; entityId: string; change: ChangeKind; data: Record<string, unknown> },
): Promise<string> {
  const id = uuidv7();
  await tx.event.create({
    data: {
      id,
      environmentId: SCOPED_ENVIRONMENT,
      type: `${e.entityType}.${e.change}`,
      entityType: e.entityType,
      entityId: e.entityId,
      data: e.data as object,
    },
  });
  return id;
}
