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

export const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
export const camel = (name: string) => name.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());

/** v2 date-times: `YYYY-MM-DD HH:MM:SS`, UTC. */
export function v2DateTime(d: Date | string | null | undefined): string | null {
  if (!d) return null;
  const iso = typeof d === 'string' ? new Date(d).toISOString() : d.toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}`;
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
  const output = (value: unknown): unknown => {
    if (value instanceof Date) return v2DateTime(value);
    if (Array.isArray(value)) return value.map(output);
    if (!value || typeof value !== 'object') return value;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) out[toV2(k)] = output(v);
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
