import type { ScopedTransaction, TenantReader } from '@bo/db';

/**
 * The transaction the domain writes with: Prisma's model methods, scoped to the
 * caller's environment, and no raw SQL (raw statements go through the tenant reader,
 * which binds the environment itself).
 */
export type EntityTransaction = Omit<ScopedTransaction, '$queryRawUnsafe' | '$executeRawUnsafe' | '$queryRaw' | '$executeRaw'>;

// the tenant reader of each open write transaction (set by inWrite), so that helpers given only
// the transaction (custom-field writes, the event recorder) can send one raw statement where
// Prisma would send several, or share what the transaction has already read
const readers = new WeakMap<object, TenantReader>();

export function bindTransactionReader(tx: EntityTransaction, reader: TenantReader): void {
  readers.set(tx, reader);
}

/** The tenant reader of a transaction opened by inWrite; undefined for any other. */
export function transactionReaderOf(tx: EntityTransaction): TenantReader | undefined {
  return readers.get(tx);
}
