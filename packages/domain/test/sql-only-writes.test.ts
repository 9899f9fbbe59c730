import { describe, expect, it } from 'vitest';
import { transactionWithoutPrisma } from '../src/shared/entity/transaction.js';

// A write declared to go through SQL only runs in a transaction of our own, where Prisma has no
// transaction: its `tx` must refuse every model method loudly instead of writing outside it.
describe('the transaction of a write declared SQL-only', () => {
  it('refuses any Prisma model method, naming it', () => {
    const tx = transactionWithoutPrisma();
    expect(() => tx.organization).toThrow(/tx\.organization in a write declared to go through SQL only/);
    expect(() => tx.event.create).toThrow(/tx\.event/);
  });

  it('is not a thenable and can be inspected, so it can be passed around and awaited past', async () => {
    const tx = transactionWithoutPrisma();
    expect((tx as unknown as { then?: unknown }).then).toBeUndefined();
    await expect(Promise.resolve(tx)).resolves.toBe(tx);
    expect(String(Object.prototype.toString.call(tx))).toBe('[object Object]');
  });
});
