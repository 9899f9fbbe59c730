import { z } from 'zod';

/** Merging one relation into another: `sourceId` is merged into `targetId`, which survives. */
export const mergeInput = z.object({
  sourceId: z.string().min(1),
  targetId: z.string().min(1),
});
export type MergeInput = z.infer<typeof mergeInput>;

export const mergeResult = z.object({ success: z.boolean(), message: z.string() });

export const compareInput = mergeInput.extend({
  /** swap which one survives before comparing */
  swapLock: z.boolean().optional(),
});

export const fieldDifference = z.object({
  field: z.string(),
  source: z.unknown(),
  target: z.unknown(),
});

export const compareResult = z.object({
  isValid: z.boolean(),
  /** what a merge would do, in one sentence, or why it cannot */
  message: z.string(),
  swapLock: z.boolean(),
  sourceId: z.string(),
  targetId: z.string(),
  /** fields whose values differ; the survivor's (target's) are kept */
  differences: z.array(fieldDifference),
  /** how many records refer to the source and would move, by table */
  moves: z.record(z.string(), z.number()),
});
