import type { createCaller } from '@bo/domain';
import type { z } from 'zod';
import type { V2Names } from './v2-names.js';

type Caller = ReturnType<typeof createCaller>;

/**
 * A v2 path that is an operation rather than a resource (a merge, a comparison): the
 * body in v2 names becomes the procedure's input, its answer is shown in v2 names.
 */
export interface V2Operation<O = unknown> {
  method: 'POST' | 'PUT' | 'GET';
  /** below /api/v2 */
  path: string;
  summary: string;
  call: (c: Caller) => (input: never) => Promise<O>;
  names: V2Names;
  /** domain schemas, for the document */
  input: z.ZodType;
  output: z.ZodType;
  /** the answer in v2 terms; the names' convention when absent */
  show?: (o: O) => unknown;
  /** the envelope's `metadata` (count, limit, offset) of a GET that pages, from the answer and the raw query */
  metadata?: (o: O, raw: Record<string, string>) => Record<string, number> | undefined;
  /** a body that is a JSON array (PUT hours/timesheetrow/order): passed as this key of the input */
  arrayBody?: string;
}

// biome-ignore lint/suspicious/noExplicitAny: the registry holds operations of any answer type
export type AnyV2Operation = V2Operation<any>;

export function v2Operation<O>(op: V2Operation<O>): V2Operation<O> {
  return op;
}
