import type { TenantSql } from '@bo/db';

/**
 * The statements a read would run, captured instead of run (to EXPLAIN the loader's own SQL):
 * a tenant reader that records each read and answers what `answer` gives (no rows by default).
 * `params` bind $1 as the tenant reader does (the environment first).
 */
export async function capturedStatements(
  environmentId: string,
  read: (sql: TenantSql) => Promise<unknown>,
  answer: (sql: string, params: unknown[]) => unknown[] = () => [],
): Promise<{ sql: string; params: unknown[] }[]> {
  const captured: { sql: string; params: unknown[] }[] = [];
  const capture: TenantSql = {
    environmentId,
    async read<T>(text: string, values: readonly unknown[] = []) {
      const statement = { sql: text, params: [environmentId, ...values] };
      captured.push(statement);
      return answer(statement.sql, statement.params) as T[];
    },
    readRemembered: async <T>() => [] as T[],
    write: async <T>() => [] as T[],
  };
  await read(capture);
  return captured;
}

/** The first statement a read would run. */
export async function capturedStatement(
  environmentId: string,
  read: (sql: TenantSql) => Promise<unknown>,
): Promise<{ sql: string; params: unknown[] }> {
  const [first] = await capturedStatements(environmentId, read);
  if (!first) throw new Error('the read sent no statement');
  return first;
}
