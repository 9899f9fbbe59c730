import type { ScopedTransaction } from '@bo/db';

/**
 * The transaction the domain writes with: Prisma's model methods, scoped to the
 * caller's environment, and no raw SQL (raw statements go through the tenant reader,
 * which binds the environment itself).
 */
export type EntityTransaction = Omit<ScopedTransaction, '$queryRawUnsafe' | '$executeRawUnsafe' | '$queryRaw' | '$executeRaw'>;
