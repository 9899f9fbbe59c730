import { changePageSchema } from '@bo/domain/changes/change.schema';
import { queryEndpoint } from './types.js';

const one = (params: Map<string, string[]>, name: string) => {
  const v = params.get(name);
  return v === undefined ? undefined : v.length === 1 ? v[0] : v.join(',');
};

/** The change feed (issue 29, section 2): cursor paging, not page/itemsPerPage offsets, so nothing is skipped or repeated. */
export const changeEndpoints = {
  'change.list': queryEndpoint({
    call: (c) => c.changes.change.list,
    withId: false,
    params: [
      {
        name: 'after',
        description: 'the cursor to read after (nextCursor of the previous page); absent: from the oldest change kept',
      },
      { name: 'entityType', description: 'only these entity types (repeat it, or entityType[]=…)' },
      { name: 'change', description: 'created, updated or deleted' },
      { name: 'occurredFrom', description: 'only changes at or after this instant (ISO 8601)' },
      { name: 'itemsPerPage', description: 'at most this many changes (1 to 100, default 100)' },
    ],
    mapInput: (_id, params) => {
      const limit = one(params, 'itemsPerPage');
      const from = one(params, 'occurredFrom');
      const change = one(params, 'change');
      return {
        ...(params.has('after') ? { after: one(params, 'after') } : {}),
        ...(params.has('entityType') ? { entityTypes: params.get('entityType') } : {}),
        ...(change !== undefined ? { change: change as 'created' } : {}),
        ...(from !== undefined ? { occurredFrom: new Date(from) } : {}),
        ...(limit !== undefined ? { limit: /^\d+$/.test(limit) ? Number(limit) : Number.NaN } : {}),
      };
    },
    doc: {
      summary:
        'Every create, update and delete of the environment in commit order, deletions included; follow nextCursor. A cursor older than the retention answers 410.',
      response: { name: 'Change.Page', schema: changePageSchema },
      errors: [400, 403, 410, 422],
    },
  }),
};
