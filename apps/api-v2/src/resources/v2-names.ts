import type { Condition, SortKey } from '@bo/domain';

/**
 * v2 names ↔ domain names. By convention a v2 name is the snake_case of the domain
 * name (`vatNumber` ↔ `vat_number`); a resource spells out only its exceptions
 * (`organizationsize` ↔ `organizationSize`). The same mapping serves reads, writes,
 * filter and sort paths and the paths of validation errors.
 */
export interface V2Names {
  toDomain(v2Name: string): string;
  toV2(domainName: string): string;
  /** `relation_type.label` → `relationType.label`; a custom field's own name is kept */
  pathToDomain(v2Path: string): string;
  pathToV2(domainPath: string): string;
  /** a v2 body → the domain input: keys renamed at every depth */
  input(body: unknown): unknown;
  /** a domain value → v2: keys renamed at every depth, date-times as `YYYY-MM-DD HH:MM:SS` */
  output(value: unknown): unknown;
  condition(c: Condition | undefined): Condition | undefined;
  sort(keys: SortKey[]): SortKey[];
}

const CUSTOM_FIELDS = 'customFields';

/**
 * A name conversion remembered per name: every row of every page renames the same few
 * hundred keys, and a regular-expression replace per key showed in the read profile.
 * Only names seen in declarations and rows are remembered; a body's unknown keys are
 * bounded by the cap (past it, converted without remembering).
 */
function remembered(convert: (name: string) => string, cap = 10_000): (name: string) => string {
  const known = new Map<string, string>();
  return (name) => {
    let out = known.get(name);
    if (out === undefined) {
      out = convert(name);
      if (known.size < cap) known.set(name, out);
    }
    return out;
  };
}

export const snake = remembered((name) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`));
export const camel = remembered((name) => name.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase()));

/** v2 date-times: `YYYY-MM-DD HH:MM:SS`, UTC. */
export function v2DateTime(d: Date | string | null | undefined): string | null {
  if (!d) return null;
  const date = typeof d === 'string' ? new Date(d) : d;
  if (Number.isNaN(date.getTime())) return null;
  const year = date.getUTCFullYear();
  // years before 1000 or past 9999 take the general form (zero-padded, or signed with six digits)
  if (year < 1000 || year > 9999) return generalV2DateTime(date);
  // by parts, not toISOString and two slices: a third of the cost, and it runs for every date of a page
  return `${year}-${TWO_DIGITS[date.getUTCMonth() + 1]}-${TWO_DIGITS[date.getUTCDate()]} ${TWO_DIGITS[date.getUTCHours()]}:${TWO_DIGITS[date.getUTCMinutes()]}:${TWO_DIGITS[date.getUTCSeconds()]}`;
}

const TWO_DIGITS = Array.from({ length: 60 }, (_, i) => String(i).padStart(2, '0'));

function generalV2DateTime(date: Date): string {
  const iso = date.toISOString();
  // years past 9999 are written with a sign and six digits: keep the general form there
  return iso.length === 24 ? `${iso.slice(0, 10)} ${iso.slice(11, 19)}` : `${iso.slice(0, -14)} ${iso.slice(-13, -5)}`;
}

/**
 * A record's v2 form, precompiled per set of keys: a function returning one object literal
 * (as fast-json-stringify and zod compile theirs). Built key by key, a record of more than a
 * dozen keys is kept by V8 as a dictionary, and a resource's read that spreads it into a
 * literal with more keys took most of a list page's time (docs/performance.md). A literal's
 * object has fast properties, and adding keys to it follows cached transitions.
 */
type OutputShape = (record: Record<string, unknown>, output: (value: unknown) => unknown) => Record<string, unknown>;

/** shapes remembered per resource (a resource's records have a handful of shapes) */
const MAX_SHAPES = 500;

function outputShape(keys: string[], toV2: (name: string) => string): OutputShape | null {
  const names = keys.map(toV2);
  // `__proto__` in a literal sets the prototype: such records take the key-by-key path
  if (names.includes('__proto__') || new Set(names).size !== names.length) return null;
  // the keys are written as JSON string literals: no key can be read as code
  const body = names.map((n, i) => `${JSON.stringify(n)}: o(r[${JSON.stringify(keys[i])}])`).join(',\n');
  return new Function('r', 'o', `return {\n${body}\n};`) as OutputShape;
}

export function v2Names(exceptions: Record<string, string> = {}): V2Names {
  const toDomainMap = new Map(Object.entries(exceptions));
  const toV2Map = new Map(Object.entries(exceptions).map(([v2, domain]) => [domain, v2]));
  const toDomain = (n: string) => toDomainMap.get(n) ?? camel(n);
  const toV2 = (n: string) => toV2Map.get(n) ?? snake(n);

  const mapPath = (path: string, one: (s: string) => string, isCustom: (s: string) => boolean) => {
    const segments = path.split('.');
    const out: string[] = [];
    for (let i = 0; i < segments.length; i += 1) {
      const seg = segments[i] ?? '';
      out.push(one(seg));
      // after custom_fields comes a custom field's own name, which is not renamed
      if (isCustom(seg)) {
        out.push(...segments.slice(i + 1));
        break;
      }
    }
    return out.join('.');
  };
  const pathToDomain = (p: string) => mapPath(p, toDomain, (s) => toDomain(s) === CUSTOM_FIELDS);
  const pathToV2 = (p: string) => mapPath(p, toV2, (s) => s === CUSTOM_FIELDS);

  const input = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(input);
    if (!value || typeof value !== 'object') return value;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) out[toDomain(k)] = input(v);
    return out;
  };
  // shapes by first key and key count, each checked key by key: no key list is joined into a
  // string per record (that join and its hash showed in the list profile)
  const shapes = new Map<string, { keys: string[]; shape: OutputShape | null }[]>();
  let shapeCount = 0;
  const sameKeys = (a: string[], b: string[]) => {
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i += 1) if (a[i] !== b[i]) return false;
    return true;
  };
  /** the precompiled shape of a record with these keys (null: rename key by key) */
  const shapeOf = (keys: string[]): OutputShape | null => {
    const bucketKey = `${keys.length}:${keys[0] ?? ''}`;
    const bucket = shapes.get(bucketKey);
    if (bucket) for (const known of bucket) if (sameKeys(known.keys, keys)) return known.shape;
    const shape = outputShape(keys, toV2);
    if (shapeCount < MAX_SHAPES) {
      shapeCount += 1;
      if (bucket) bucket.push({ keys, shape });
      else shapes.set(bucketKey, [{ keys, shape }]);
    }
    return shape;
  };
  const output = (value: unknown): unknown => {
    if (value === null || typeof value !== 'object') return value;
    if (value instanceof Date) return v2DateTime(value);
    if (Array.isArray(value)) return value.map(output);
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record);
    const shape = shapeOf(keys);
    if (shape) return shape(record, output);
    const out: Record<string, unknown> = {};
    for (const k of keys)
      Object.defineProperty(out, toV2(k), { value: output(record[k]), enumerable: true, writable: true, configurable: true });
    return out;
  };
  const condition = (c: Condition | undefined): Condition | undefined => {
    if (!c) return c;
    if ('and' in c) return { and: c.and.map((x) => condition(x) as Condition) };
    if ('or' in c) return { or: c.or.map((x) => condition(x) as Condition) };
    return { ...c, path: pathToDomain(c.path) };
  };
  return {
    toDomain,
    toV2,
    pathToDomain,
    pathToV2,
    input,
    output,
    condition,
    sort: (keys) => keys.map((k) => ({ ...k, path: pathToDomain(k.path) })),
  };
}
