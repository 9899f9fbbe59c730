/**
 * Read aliases: names the real v2 has always answered beside the reference's, with the same
 * value. Declared once here; every resource's reads carry them (mount.ts), and filters,
 * sorts and `select` take them (query-language.ts), so `q[modified][ge]=…`, `sort=-modified`
 * and `select=modified` work on every resource whose read has the timestamps.
 */
export const V2_READ_ALIASES: Readonly<Record<string, string>> = Object.freeze({
  /** legacy name of created_at */
  created: 'created_at',
  /** legacy name of updated_at */
  modified: 'updated_at',
});

const ALIASES = Object.entries(V2_READ_ALIASES);

/** A v2 filter or sort path with an alias as its first segment, in the reference's name. */
export function unaliasedPath(path: string): string {
  const dot = path.indexOf('.');
  const head = dot === -1 ? path : path.slice(0, dot);
  const target = Object.hasOwn(V2_READ_ALIASES, head) ? V2_READ_ALIASES[head] : undefined;
  return target === undefined ? path : dot === -1 ? target : `${target}${path.slice(dot)}`;
}

/** A read with its aliases added where the aliased field is there (a field of the same name wins). */
export function withReadAliases(record: Record<string, unknown>): Record<string, unknown> {
  for (const [alias, target] of ALIASES) {
    if (target in record && !(alias in record)) record[alias] = record[target];
  }
  return record;
}
