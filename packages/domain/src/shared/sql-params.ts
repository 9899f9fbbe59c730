/**
 * Named parameters for a raw SQL statement, numbered in one place:
 * `sqlParams({ id, leaseMs })` gives `p.id === '$1'` and `p.leaseMs === '$2'` to
 * write into the statement, and `values` in that order to pass after it. A name
 * may be used any number of times; a misspelt one is a type error, never a wrong `$n`.
 */
export function sqlParams<P extends Record<string, unknown>>(
  params: P,
): { p: { readonly [K in keyof P]: string }; values: unknown[] } {
  const p: Record<string, string> = {};
  const values: unknown[] = [];
  for (const [name, value] of Object.entries(params)) {
    values.push(value);
    p[name] = `$${values.length}`;
  }
  return { p: p as { readonly [K in keyof P]: string }, values };
}
