/** The local PostgreSQL server the tests use; TEST_PG_URL overrides it. */
export function adminUrl(): string {
  return process.env.TEST_PG_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
}

export function databaseUrl(name: string): string {
  const u = new URL(adminUrl());
  u.pathname = `/${name}`;
  return u.toString();
}
