import { noteRequestWrite, type PrismaClient } from '@bo/db';
import { type AnyEntity, declaredEntities } from '../shared/entity/index.js';
import { restrictRelations } from '../shared/entity/entity-crud.js';
import { ForbiddenError, GoneError, ValidationError } from '../shared/errors.js';
import { hasRight } from '../shared/rights.js';
import type { UserContext } from '../trpc.js';
import { barrierBackOffMs } from '../webhooks/delivery-policy.js';
import { dispatchEvents } from '../webhooks/dispatch-events.js';
import { type Change, type ChangePage, type ListChangesInput, listChangesSchema } from './change.schema.js';

/** the fullest declaration of each entity type that events carry (an area's stand-in has fewer fields) */
function entitiesByType(): Map<string, AnyEntity> {
  const byType = new Map<string, AnyEntity>();
  for (const e of declaredEntities()) {
    const known = byType.get(e.type);
    if (!known || Object.keys(e.fields).length > Object.keys(known.fields).length) byType.set(e.type, e);
  }
  return byType;
}
let byType: Map<string, AnyEntity> | undefined;

/** one catch-up of the final horizon at a time per process; the readers that come meanwhile wait for it (true: it gave up) */
const catchingUp = new WeakMap<PrismaClient, Promise<boolean>>();

/**
 * Rounds of a feed read's catch-up. A round whose barrier gave up (a writer held the outbox past
 * 50 ms) is tried again after the barrier's back-off (50 ms doubling: about 1.6 s in all), so that
 * a change whose write has answered is not left out of the feed by a writer that is merely slow;
 * only an outbox held longer than that answers up to the horizon the feed has.
 */
const CATCH_UP_ROUNDS = 6;

/**
 * The highest seq below which every event is final (committed or rolled back): the webhook
 * dispatcher's cursor, which only moves through its barrier (dispatch-events.ts). A feed that
 * read past it could skip a seq that commits later. When the caller's environment has events
 * past it (a write that was just answered, with the worker elsewhere or idle), the read moves
 * it itself, by the same dispatcher step, so a change is in the feed as soon as its write has
 * answered.
 */
async function finalHorizon(ctx: UserContext, after: bigint, cursorGiven: boolean): Promise<bigint> {
  // one round trip: the horizon, whether the environment has events past it, and what the retention
  // pruned. Not the environment's max(seq): PostgreSQL reads that backwards on the seq index, filtering
  // out every later event of other environments (900,000 rows, about a second, for an environment whose
  // events are old among a busy outbox); past the horizon there are only the few not yet dispatched,
  // read in seq order (an EXISTS was planned as a scan of the whole outbox for a busy environment).
  const read = async () =>
    (
      await ctx.sql.read<{ horizon: string | null; behind: boolean; pruned: string | null }>(
        `SELECT c.horizon::text AS horizon,
                (SELECT e.seq FROM event e WHERE e.environment_id = $1 AND e.seq > coalesce(c.horizon, 0)
                  ORDER BY e.seq LIMIT 1) IS NOT NULL AS behind,
                (SELECT pruned_through_seq FROM event_retention WHERE id = 1)::text AS pruned
           FROM (SELECT (SELECT last_seq FROM webhook_dispatch_cursor WHERE id = 1) AS horizon) c`,
      )
    )[0];
  let r = await read();
  if (cursorGiven && after < BigInt(r?.pruned ?? '0')) {
    throw new GoneError(
      `the cursor ${after} is older than the feed's retention: changes after it were pruned. ` +
        'Read the current state again (the lists, sorted by updated_at), then follow the feed from its start (no cursor).',
    );
  }
  for (let round = 0; round < CATCH_UP_ROUNDS && (r?.horizon === null || r?.behind === true); round++) {
    let pending = catchingUp.get(ctx.prisma);
    if (!pending) {
      pending = dispatchEvents(ctx.prisma, { barrier: true })
        .then((d) => d.gaveUp)
        .finally(() => catchingUp.delete(ctx.prisma));
      catchingUp.set(ctx.prisma, pending);
    }
    if (await pending) await new Promise((resolve) => setTimeout(resolve, barrierBackOffMs(round + 1)));
    // the horizon moved on the primary: the reads below must see that (a replica read then asks for a later position)
    noteRequestWrite();
    r = await read();
  }
  return BigInt(r?.horizon ?? '0');
}

interface EventRow {
  cursor: string;
  type: string;
  entity_type: string;
  entity_id: string;
  occurred_at: Date;
  data: Record<string, unknown>;
}

/**
 * The change feed of the caller's environment: every create, update and delete, in commit order
 * (the outbox's seq, read only up to the final horizon: a page never skips a change that commits
 * later, and never repeats one), filtered in the database to the entity types whose module the
 * caller may read, each entity shown as the caller may see it (relations into modules it may not
 * read as {id, name}). A cursor older than the retention answers 410.
 */
export async function listChanges(ctx: UserContext, raw: ListChangesInput): Promise<ChangePage> {
  const input = listChangesSchema.parse(raw);
  byType ??= entitiesByType();
  const types = byType;
  const readable = [...types.values()].filter((e) => hasRight(ctx.principal.rights, e.module, 'read')).map((e) => e.type);
  let wanted = readable;
  if (input.entityTypes) {
    const unknown = input.entityTypes.filter((t) => !types.has(t));
    if (unknown.length) {
      throw new ValidationError(
        unknown.map((t) => ({ path: 'entityTypes', message: `there is no entity type ${t}`, code: 'not_found' })),
      );
    }
    const hidden = input.entityTypes.filter((t) => !readable.includes(t));
    if (hidden.length) throw new ForbiddenError(`no read right for the changes of ${hidden.join(', ')}`);
    wanted = input.entityTypes;
  }

  const after = BigInt(input.after ?? '0');
  const horizon = await finalHorizon(ctx, after, input.after !== undefined);
  if (wanted.length === 0 || horizon <= after) return { items: [], nextCursor: input.after ?? null, hasMore: false };

  const params: unknown[] = [after.toString(), horizon.toString(), wanted, input.limit + 1];
  const more: string[] = [];
  if (input.change) {
    params.push(`%.${input.change}`);
    more.push(`AND e.type LIKE $${params.length + 1}`);
  }
  if (input.occurredFrom) {
    params.push(input.occurredFrom);
    more.push(`AND e.occurred_at >= $${params.length + 1}`);
  }
  // the range in order, the filters checked on the way (PostgreSQL picks the seq index or
  // (environment_id, seq); a caught-up poll of a quiet environment in a busy outbox can still read past
  // the others' later events on the first: known, see docs/change-feed.md)
  const rows = await ctx.sql.read<EventRow>(
    `SELECT e.seq::text AS cursor, e.type, e.entity_type, e.entity_id, e.occurred_at, e.data
       FROM event e
      WHERE e.environment_id = $1 AND e.seq > $2::bigint AND e.seq <= $3::bigint
        AND e.entity_type = ANY($4::text[]) ${more.join(' ')}
      ORDER BY e.seq
      LIMIT $5`,
    params,
  );
  const hasMore = rows.length > input.limit;
  const page = hasMore ? rows.slice(0, input.limit) : rows;
  const items: Change[] = page.map((r) => {
    const change = r.type.slice(r.type.lastIndexOf('.') + 1) as Change['change'];
    const entity = types.get(r.entity_type);
    const data = change !== 'deleted' && entity ? (restrictRelations(ctx, entity, [r.data])[0] ?? r.data) : r.data;
    return { cursor: r.cursor, entityType: r.entity_type, entityId: r.entity_id, change, occurredAt: r.occurred_at, data };
  });
  return { items, nextCursor: items.at(-1)?.cursor ?? input.after ?? null, hasMore };
}
