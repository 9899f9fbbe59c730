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

/**
 * The `tx` of a write that runs without Prisma's transaction (see `sqlOnly` in entity-crud.ts):
 * helpers that find the transaction's reader write through it; a Prisma model method used there
 * is a bug of the use case's declaration, and fails loudly instead of writing outside the transaction.
 */
export function transactionWithoutPrisma(): EntityTransaction {
  return new Proxy({} as EntityTransaction, {
    get(_target, property) {
      // not a thenable, and inspectable
      if (typeof property === 'symbol' || property === 'then' || property === 'toJSON') return undefined;
      throw new Error(`tx.${property} in a write declared to go through SQL only`);
    },
  });
}
