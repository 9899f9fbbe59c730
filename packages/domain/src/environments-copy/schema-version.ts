import type { PrismaClient } from '@bo/db';

/** the last migration applied: an export records it, an import refuses a file of a later schema */
export async function schemaVersion(prisma: PrismaClient): Promise<string> {
  const rows = await prisma.$queryRawUnsafe<{ name: string }[]>(
    `SELECT migration_name AS name FROM _prisma_migrations
      WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL ORDER BY migration_name DESC LIMIT 1`,
  );
  return rows[0]?.name ?? '';
}

export async function knowsSchema(prisma: PrismaClient, name: string): Promise<boolean> {
  const rows = await prisma.$queryRawUnsafe<{ n: number }[]>(
    'SELECT count(*)::int AS n FROM _prisma_migrations WHERE migration_name = $1 AND finished_at IS NOT NULL',
    name,
  );
  return (rows[0]?.n ?? 0) > 0;
}
