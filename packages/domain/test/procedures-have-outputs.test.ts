import { initTRPC } from '@trpc/server';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { appRouter } from '../src/router.js';

/**
 * Every procedure of the router declares what it answers (`.output()`): an internal tool
 * gets typed data, and tRPC checks each answer against the declaration at run time.
 *
 * The walk goes through the router's public `_def.record` (sub-routers and procedures by
 * name). A built procedure's public type names only its input parsers; the output parser
 * `.output()` set is kept on the same `_def` object (tRPC's procedure builder definition),
 * so it is read from there by a structural check, not through a cast to a private type.
 */
interface Walked {
  path: string;
  hasOutput: boolean;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function walk(record: Record<string, unknown>, prefix = ''): Walked[] {
  const out: Walked[] = [];
  for (const [name, node] of Object.entries(record)) {
    const path = prefix ? `${prefix}.${name}` : name;
    // a sub-router (t.router()), or a plain object of procedures nested in a router's record
    const def: unknown = typeof node === 'function' || isRecord(node) ? (node as { _def?: unknown })._def : undefined;
    if (isRecord(def) && def.procedure === true) {
      out.push({ path, hasOutput: 'output' in def && def.output !== undefined });
    } else if (isRecord(def) && def.router === true && isRecord(def.record)) {
      const lazy = isRecord(def.lazy) ? Object.keys(def.lazy) : [];
      // a lazy sub-router cannot be walked without loading it: named as unchecked
      for (const l of lazy) out.push({ path: `${path}.${l}`, hasOutput: false });
      out.push(...walk(def.record, path));
    } else if (isRecord(node)) {
      out.push(...walk(node, path));
    }
  }
  return out;
}

const missingOutputs = (record: Record<string, unknown>) =>
  walk(record)
    .filter((p) => !p.hasOutput)
    .map((p) => p.path);

describe('every procedure declares its output', () => {
  it('the walk finds every procedure of the app router (the same count as its flat list)', () => {
    const walked = walk(appRouter._def.record);
    expect(walked.length).toBeGreaterThan(300);
    expect(walked.map((p) => p.path).sort()).toEqual(Object.keys(appRouter._def.procedures).sort());
  });

  it('no procedure of the app router lacks an output schema', () => {
    // the message names each one, so the failure says what to fix
    expect(missingOutputs(appRouter._def.record), 'procedures without .output()').toEqual([]);
  });

  it('the walk names a procedure without an output schema, however deep', () => {
    const t = initTRPC.create();
    const sample = t.router({
      typed: t.procedure.output(z.object({ id: z.string() })).query(() => ({ id: 'a' })),
      nested: t.router({
        untyped: t.procedure.query(() => 1),
        deeper: t.router({ alsoUntyped: t.procedure.input(z.object({})).mutation(() => null) }),
      }),
    });
    expect(missingOutputs(sample._def.record)).toEqual(['nested.untyped', 'nested.deeper.alsoUntyped']);
  });
});
