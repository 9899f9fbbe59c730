import type { TenantSql } from '@bo/db';

/**
 * The statement a read would run, captured instead of run (to EXPLAIN the loader's own SQL):
 * a tenant reader that records the first read and answers no rows. `params` bind $1 as the
 * tenant reader does (the environment first).
 */
export async function capturedStatement(
  environmentId: string,
  read: (sql: TenantSql) => Promise<unknown>,
): Promise<{ sql: string; params: unknown[] }> {
  let captured: { sql: string; params: unknown[] } | null = null;
  const capture: TenantSql = {
    environmentId,
    async read<T>(text: string, values: readonly unknown[] = []) {
      captured ??= { sql: text, params: [environmentId, ...values] };
      return [] as T[];
    },
    readRemembered: async <T>() => [] as T[],
    write: async <T>() => [] as T[],
  };
  await read(capture);
  if (!captured) throw new Error('the read sent no statement');
  return captured;
}
