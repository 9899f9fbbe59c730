import { assertConditionSize, OPERATORS, type Condition } from '@bo/db';
import { z } from 'zod';

const comparisonSchema = z.object({
  path: z.string().min(1),
  op: z.enum(OPERATORS),
  value: z.union([z.string(), z.array(z.string())]),
});

export const conditionSchema: z.ZodType<Condition> = z.lazy(() =>
  z.union([comparisonSchema, z.object({ and: z.array(conditionSchema) }), z.object({ or: z.array(conditionSchema) })]),
);

export const viewSchema = z.enum(['v2', 'v3']);

/** Both versions list through this; each adapter enforces its own page-size limit (v2 100, v3 30). */
export const listInputSchema = z.object({
  query: z.object({
    // the size limits first, without recursion: a deeply nested filter (tRPC takes any JSON)
    // would otherwise exhaust the stack inside the recursive schema
    where: z.preprocess((where) => {
      assertConditionSize(where);
      return where;
    }, conditionSchema.optional()),
    orderBy: z.array(z.object({ path: z.string().min(1), dir: z.enum(['asc', 'desc']) })).default([]),
    offset: z.number().int().min(0).default(0),
    limit: z.number().int().min(1).max(100).default(100),
    count: z.boolean().default(false),
  }),
  view: viewSchema,
  select: z.array(z.string()).optional(),
});
export type ListInput = z.infer<typeof listInputSchema>;

export const getInputSchema = z.object({
  id: z.string().min(1),
  view: viewSchema,
  select: z.array(z.string()).optional(),
});
export type GetInput = z.infer<typeof getInputSchema>;

export const idInputSchema = z.object({ id: z.string().min(1) });
