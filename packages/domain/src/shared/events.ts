import { currentRequestScope, type TenantReader } from '@bo/db';
import { uuidv7 } from './ids.js';

export type ChangeKind = 'created' | 'updated' | 'deleted';

/** An event payload already in JSON (date-times as ISO 8601): written as it is, not parsed and stringified again. */
export class EventJson {
  constructor(readonly text: string) {}
}

/**
 * The version of event payloads: `data` is the entity as its domain output schema
 * defines it (never a wire view). A change that breaks that shape raises it.
 */
export const EVENT_PAYLOAD_VERSION = 1;

/** the id of the request making the change (X-Request-Id), kept with its event for its deliveries; null outside a request */
function requestIdOfChange(): string | null {
  return currentRequestScope()?.requestId ?? null;
}

/**
 * Writes the event of a change into the outbox inside the change's own
 * transaction: a rolled-back change leaves no event, a committed one always has one.
 */
export async function recordEvent(
  sql: TenantReader,
  e: {
    entityType: string;
    entityId: string;
    change: ChangeKind;
    /** the payload, or its JSON text when the caller has it (see EventJson) */
    data: Record<string, unknown> | EventJson;
  },
): Promise<string> {
  const id = uuidv7();
  // queued: in a transaction of our own it goes with the COMMIT
  await sql.queue(
    `INSERT INTO event (id, environment_id, type, entity_type, entity_id, data, occurred_at, request_id)
     VALUES ($2::uuid, $1, $3, $4, $5, $6::jsonb, clock_timestamp(), $7)`,
    [
      id,
      `${e.entityType}.${e.change}`,
      e.entityType,
      e.entityId,
      e.data instanceof EventJson ? e.data.text : JSON.stringify(e.data),
      requestIdOfChange(),
    ],
    { stablePlan: true },
  );
  return id;
}

/**
 * Writes the event of a change whose payload PostgreSQL makes in the same statement: `row` is
 * the entity's row `t` as JSON (EntityLoader.rowJson) read from `table` by the entity's id, or
 * `{id}` when no row is there (as entityEventData answers). Queued: in a transaction of our own
 * it goes with the COMMIT, and the write reads nothing back.
 */
export async function recordEventOfRow(
  reader: TenantReader,
  e: { entityType: string; entityId: string; change: ChangeKind; table: string; row: string },
): Promise<string> {
  if (!/^[a-z_][a-z0-9_]*$/.test(e.table)) throw new Error(`unsafe identifier ${e.table}`);
  const id = uuidv7();
  await reader.queue(
    `INSERT INTO event (id, environment_id, type, entity_type, entity_id, data, occurred_at, request_id)
     VALUES ($2::uuid, $1, $3, $4, $5,
             COALESCE((SELECT (${e.row})::jsonb FROM "${e.table}" t WHERE t.environment_id = $1 AND t.id = $5),
                      jsonb_build_object('id', $5::text)),
             clock_timestamp(), $6)`,
    [id, `${e.entityType}.${e.change}`, e.entityType, e.entityId, requestIdOfChange()],
    { stablePlan: true },
  );
  return id;
}
