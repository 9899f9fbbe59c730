import { BadRequestError } from '@bo/domain';
import { type Change, type ChangePage, listChangesSchema } from '@bo/domain/changes/change.schema';
import { z } from 'zod';
import { v2DateTime, v2Names } from './v2-names.js';
import { v2Operation } from './v2-operation.js';

/** the query parameters of GET /changes, in their v2 spelling */
const PARAMS = ['q[cursor][gt]', 'q[entity_type]', 'q[change]', 'q[occurred_at][ge]', 'limit'] as const;

/** `YYYY-MM-DD HH:MM:SS` (UTC, the contract's form) or ISO 8601 */
function instant(raw: string): Date {
  const d = new Date(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(raw) ? `${raw.replace(' ', 'T')}Z` : raw);
  if (Number.isNaN(d.getTime())) throw new BadRequestError(`q[occurred_at][ge]: not a date-time: ${raw}`, 'q[occurred_at][ge]');
  return d;
}

/** the v2 query of the feed → the domain's query */
function changesQuery(raw: Record<string, string>) {
  for (const key of Object.keys(raw)) {
    if (!(PARAMS as readonly string[]).includes(key)) {
      throw new BadRequestError(`unknown parameter ${key}; /changes takes ${PARAMS.join(', ')}`, key);
    }
  }
  const types = raw['q[entity_type]'];
  const limit = raw.limit;
  return {
    ...(raw['q[cursor][gt]'] !== undefined ? { after: raw['q[cursor][gt]'] } : {}),
    ...(types !== undefined ? { entityTypes: types.split(',').map((t) => t.trim()) } : {}),
    ...(raw['q[change]'] !== undefined ? { change: raw['q[change]'] as Change['change'] } : {}),
    ...(raw['q[occurred_at][ge]'] !== undefined ? { occurredFrom: instant(raw['q[occurred_at][ge]']) } : {}),
    ...(limit !== undefined ? { limit: /^\d+$/.test(limit) ? Number(limit) : Number.NaN } : {}),
  };
}

const changeV2Schema = z.object({
  cursor: z.string(),
  entity_type: z.string(),
  entity_id: z.string(),
  change: z.enum(['created', 'updated', 'deleted']),
  occurred_at: z.string(),
  data: z.record(z.string(), z.unknown()),
});

function changeV2(c: Change): z.infer<typeof changeV2Schema> {
  return {
    cursor: c.cursor,
    entity_type: c.entityType,
    entity_id: c.entityId,
    change: c.change,
    occurred_at: v2DateTime(c.occurredAt) as string,
    data: c.data,
  };
}

/**
 * GET /api/v2/changes (issue 29, section 2; not in the reference contract): every create, update
 * and delete of the environment in commit order, deletions included. Page with
 * `q[cursor][gt]=<the last item's cursor>`: under concurrent writes `offset` would skip or repeat.
 * `data` is the entity as the domain declares it (the webhooks' payload), not a v2 resource shape.
 */
export const changesV2 = v2Operation<ChangePage>({
  method: 'GET',
  path: 'changes',
  summary: 'The change feed: creates, updates and deletes in commit order (page with q[cursor][gt])',
  // the parameters keep their v2 spelling: changesQuery reads them as they came
  names: v2Names(Object.fromEntries(PARAMS.map((k) => [k, k]))),
  call: (c) => (raw: never) => c.changes.change.list(changesQuery(raw as Record<string, string>)),
  input: listChangesSchema,
  output: z.array(changeV2Schema),
  show: (o) => o.items.map(changeV2),
});
