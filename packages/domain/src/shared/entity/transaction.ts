import type { ScopedTransaction } from '@bo/db';

/**
 * Prisma's transaction, scoped to the caller's environment, for the use cases still written
 * with its model methods. It has no raw SQL: every raw statement goes through the tenant reader
 * of the write (WriteContext.sql), which binds the environment itself.
 */
export type EntityTransaction = Omit<ScopedTransaction, '$queryRawUnsafe' | '$executeRawUnsafe' | '$queryRaw' | '$executeRaw'>;
