import { z } from 'zod';

export const CHANGE_KINDS = ['created', 'updated', 'deleted'] as const;

/** at most this many changes a page */
export const MAX_CHANGES_PAGE = 100;

/** A cursor of the feed: the position of a change, opaque to clients (digits today). */
export const changeCursorSchema = z.string().regex(/^\d{1,19}$/, 'a cursor this feed answered (nextCursor or an item’s cursor)');

/** A query of the change feed, in domain terms; each wire maps its own parameters onto it. */
export const listChangesSchema = z.strictObject({
  /** the changes after this cursor; absent: from the oldest one kept */
  after: changeCursorSchema.optional(),
  /** only these entity types (`organization`, `project`, …) */
  entityTypes: z
    .array(z.string().regex(/^[a-z][a-z0-9_]*$/, 'an entity type such as organization'))
    .min(1)
    .max(50)
    .optional(),
  /** only this kind of change */
  change: z.enum(CHANGE_KINDS).optional(),
  /** only changes that occurred at or after this instant (for a polling loop kept on timestamps) */
  occurredFrom: z.date().optional(),
  limit: z.number().int().min(1).max(MAX_CHANGES_PAGE).default(MAX_CHANGES_PAGE),
});
export type ListChangesInput = z.input<typeof listChangesSchema>;

/** One change: an entity created, updated or deleted, with the entity as it was then ({id, type} when deleted). */
export const changeSchema = z.object({
  cursor: z.string(),
  entityType: z.string(),
  entityId: z.string(),
  change: z.enum(CHANGE_KINDS),
  occurredAt: z.date(),
  data: z.record(z.string(), z.unknown()),
});
export type Change = z.infer<typeof changeSchema>;

export const changePageSchema = z.object({
  items: z.array(changeSchema),
  /** pass it as `after` for the next page; the same cursor again when nothing new has come */
  nextCursor: z.string().nullable(),
  /** more changes are ready now (the page was full) */
  hasMore: z.boolean(),
});
export type ChangePage = z.infer<typeof changePageSchema>;
