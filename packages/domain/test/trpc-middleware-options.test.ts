import { initTRPC } from '@trpc/server';
import { describe, expect, it } from 'vitest';

/**
 * tRPC is patched (patches/@trpc__server@11.25.2.patch): the options each middleware gets, and the
 * context a middleware's next() merges, are copied with Object.assign instead of the build's
 * objectSpread2 helper. These are the rules the copies must keep, whatever copies them.
 */
interface Ctx {
  a: number;
  b?: number;
  nested: { n: number };
  [key: string]: unknown;
}
const t = initTRPC.context<Ctx>().meta<{ label: string }>().create();

describe('tRPC middleware options (patched spread)', () => {
  it("a middleware's next({ ctx }) merges its keys over the context's, key by key, and leaves the caller's context unchanged", async () => {
    const seen: unknown[] = [];
    const procedure = t.procedure
      .meta({ label: 'merge' })
      .use(({ ctx, next, meta }) => {
        seen.push(meta?.label);
        return next({ ctx: { b: ctx.a + 1, a: 10 } });
      })
      .use(({ ctx, next }) => {
        seen.push({ ...ctx });
        return next();
      })
      .query(({ ctx }) => ({ a: ctx.a, b: ctx.b, nested: ctx.nested }));
    const router = t.router({ procedure });
    const ctx: Ctx = { a: 1, nested: { n: 5 } };
    const answer = await t.createCallerFactory(router)(ctx).procedure();
    expect(answer).toEqual({ a: 10, b: 2, nested: { n: 5 } });
    // the same nested object (a shallow copy, as a spread), the caller's context untouched
    expect(answer.nested).toBe(ctx.nested);
    expect(ctx).toEqual({ a: 1, nested: { n: 5 } });
    expect(seen).toEqual(['merge', { a: 10, b: 2, nested: { n: 5 } }]);
  });

  it('the input, the raw input and a replaced raw input reach the next middleware and the procedure', async () => {
    const raws: unknown[] = [];
    const procedure = t.procedure
      .use(async ({ getRawInput, next }) => {
        raws.push(await getRawInput());
        return next({ getRawInput: async () => ({ id: 'replaced' }) });
      })
      .use(async ({ getRawInput, next }) => {
        raws.push(await getRawInput());
        return next();
      })
      .input((v: unknown) => v as { id: string })
      .query(({ input }) => input.id);
    const router = t.router({ procedure });
    expect(
      await t
        .createCallerFactory(router)({ a: 1, nested: { n: 1 } })
        .procedure({ id: 'given' }),
    ).toBe('replaced');
    expect(raws).toEqual([{ id: 'given' }, { id: 'replaced' }]);
  });

  it('a context key named __proto__ stays a key of the context and never becomes its prototype', async () => {
    const procedure = t.procedure
      .use(({ next }) => next({ ctx: JSON.parse('{"__proto__": {"polluted": true}, "b": 3}') as Partial<Ctx> }))
      .query(({ ctx }) => ({
        own: Object.hasOwn(ctx, '__proto__'),
        prototype: Object.getPrototypeOf(ctx) === Object.prototype,
        polluted: (ctx as { polluted?: unknown }).polluted,
        b: ctx.b,
      }));
    const router = t.router({ procedure });
    const answer = await t
      .createCallerFactory(router)({ a: 1, nested: { n: 1 } })
      .procedure();
    expect(answer).toEqual({ own: true, prototype: true, polluted: undefined, b: 3 });
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });
});
