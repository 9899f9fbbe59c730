import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { unknownInputKeys } from '../src/shared/unknown-input-keys.js';

/** The walk that names an input's unknown keys, at every depth, for the strict procedures (trpc.ts). */
describe('unknown input keys', () => {
  const line = z.object({ vatClassId: z.string().nullable().optional(), amount: z.number() });
  const schema = z.object({
    name: z.string(),
    lines: z.array(line).optional(),
    address: z.object({ city: z.string() }).nullable().optional(),
    kind: z
      .union([z.object({ type: z.literal('a'), a: z.number() }), z.object({ type: z.literal('b'), b: z.number() })])
      .optional(),
    values: z.record(z.string(), z.object({ v: z.number() })).optional(),
    free: z.record(z.string(), z.unknown()).optional(),
    loose: z.looseObject({ x: z.number() }).optional(),
  });

  it('names a key unknown at the top, in an array item, in a nested object, in a union option and in a record value', () => {
    expect(
      unknownInputKeys(schema, {
        name: 'n',
        query: 'x',
        view: 'y',
        lines: [{ amount: 1 }, { amount: 2, colour: 'red' }],
        address: { city: 'c', planet: 'earth' },
        kind: { type: 'b', b: 1, c: 2 },
        values: { one: { v: 1, w: 2 } },
      }),
    ).toEqual(['query', 'view', 'lines.1.colour', 'address.planet', 'kind.c', 'values.one.w']);
  });

  it('names nothing where every key is known, or where the schema admits any key', () => {
    expect(
      unknownInputKeys(schema, {
        name: 'n',
        lines: [{ amount: 1 }],
        address: null,
        free: { anything: { deep: 1 } },
        loose: { x: 1, y: 2 },
        leftUndefined: undefined,
      }),
    ).toEqual([]);
  });

  it('sees the keys a preprocess hands to its schema, and the input keys of a transform', () => {
    const renamed = z.preprocess(
      (v) => (v && typeof v === 'object' && 'old' in v ? { new: (v as { old: unknown }).old } : v),
      z.object({ new: z.string() }),
    );
    expect(unknownInputKeys(renamed, { old: 'x' })).toEqual([]);
    expect(unknownInputKeys(renamed, { new: 'x', other: 1 })).toEqual(['other']);
    const transformed = z.object({ a: z.string() }).transform((v) => v.a);
    expect(unknownInputKeys(transformed, { a: 'x', b: 1 })).toEqual(['b']);
  });

  it('an intersection knows the keys of both sides', () => {
    const both = z.intersection(z.object({ a: z.string() }), z.object({ b: z.string() }));
    expect(unknownInputKeys(both, { a: 'x', b: 'y', c: 'z' })).toEqual(['c']);
  });

  it('is bounded in depth, whatever the value (a recursive schema)', () => {
    type Node = { child?: Node };
    const node: z.ZodType<Node> = z.lazy(() => z.object({ child: node.optional() }));
    let deep: Record<string, unknown> = { extra: 1 };
    for (let i = 0; i < 10_000; i += 1) deep = { child: deep };
    expect(() => unknownInputKeys(node, deep)).not.toThrow();
    expect(unknownInputKeys(node, { child: { child: { extra: 1 } } })).toEqual(['child.child.extra']);
  });
});
