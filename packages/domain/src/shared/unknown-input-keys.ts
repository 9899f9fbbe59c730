import type { z } from 'zod';

/**
 * The keys of an input that its schema does not know, at every depth (`query`, `lines.0.colour`).
 * zod's plain objects strip such keys silently: a caller who misspells a filter or sends a key of
 * another version would get an answer that ignores it (issue 28, section 6). The procedures of the
 * router refuse them (trpc.ts), as v3 does on its wire; v2 drops them, as its contract allows.
 *
 * The walk follows the schema beside the value: objects, arrays, tuples, records, optional,
 * nullable and default wrappers, unions (the option the value satisfies), intersections (a key is
 * unknown when neither side knows it), lazy schemas and pipes (a preprocess is applied first, so
 * the keys are those of the value the inner schema sees). A schema that admits any key (a loose
 * object, `unknown`, a json value) ends the walk there. Bounded: no deeper than MAX_DEPTH levels
 * of the schema, whatever the value.
 */
const MAX_DEPTH = 64;

interface Def {
  type: string;
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
  innerType?: z.ZodType;
  element?: z.ZodType;
  items?: z.ZodType[];
  rest?: z.ZodType | null;
  valueType?: z.ZodType;
  options?: z.ZodType[];
  left?: z.ZodType;
  right?: z.ZodType;
  in?: z.ZodType;
  out?: z.ZodType;
  getter?: () => z.ZodType;
}

const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date);

export function unknownInputKeys(schema: z.ZodType, value: unknown): string[] {
  const out: string[] = [];
  walk(schema, value, '', 0, out);
  return out;
}

function walk(schema: z.ZodType, value: unknown, path: string, depth: number, out: string[]): void {
  if (depth > MAX_DEPTH || value === undefined || value === null) return;
  const def = defOf(schema);
  const at = (key: string | number) => (path ? `${path}.${key}` : String(key));
  switch (def.type) {
    case 'object': {
      if (!isPlainObject(value)) return;
      const shape = def.shape ?? {};
      // a loose object (catchall unknown) admits any key; a strict one (catchall never) is refused by zod itself
      const admitsAny = def.catchall !== undefined && defOf(def.catchall).type !== 'never';
      for (const [key, v] of Object.entries(value)) {
        const field = shape[key];
        if (field) walk(field, v, at(key), depth + 1, out);
        // an in-process caller's key left undefined says nothing (JSON has no undefined)
        else if (v === undefined) continue;
        else if (!admitsAny) out.push(at(key));
      }
      return;
    }
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'catch':
    case 'readonly':
    case 'nonoptional':
      if (def.innerType) walk(def.innerType, value, path, depth + 1, out);
      return;
    case 'lazy':
      if (def.getter) walk(def.getter(), value, path, depth + 1, out);
      return;
    case 'array':
      if (Array.isArray(value) && def.element) {
        const element = def.element;
        value.forEach((v, n) => {
          walk(element, v, at(n), depth + 1, out);
        });
      }
      return;
    case 'tuple':
      if (Array.isArray(value)) {
        value.forEach((v, n) => {
          const item = def.items?.[n] ?? def.rest ?? undefined;
          if (item) walk(item, v, at(n), depth + 1, out);
        });
      }
      return;
    case 'record':
      if (isPlainObject(value) && def.valueType) {
        const valueType = def.valueType;
        for (const [key, v] of Object.entries(value)) walk(valueType, v, at(key), depth + 1, out);
      }
      return;
    case 'union': {
      // the keys unknown to the option the value satisfies; none satisfied: the parse error says why
      const option = def.options?.find((o) => o.safeParse(value).success);
      if (option) walk(option, value, path, depth + 1, out);
      return;
    }
    case 'intersection': {
      if (!def.left || !def.right) return;
      const left: string[] = [];
      const right: string[] = [];
      walk(def.left, value, path, depth + 1, left);
      walk(def.right, value, path, depth + 1, right);
      const known = new Set(right);
      out.push(...left.filter((k) => known.has(k)));
      return;
    }
    case 'pipe': {
      if (!def.in || !def.out) return;
      if (defOf(def.in).type === 'transform') {
        // a preprocess: the inner schema sees the transformed value
        const transformed = def.in.safeParse(value);
        if (transformed.success) walk(def.out, transformed.data, path, depth + 1, out);
        return;
      }
      walk(def.in, value, path, depth + 1, out);
      return;
    }
    default:
      return;
  }
}
