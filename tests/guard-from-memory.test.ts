import { createPrismaClient, type PrismaClient } from '@bo/db';
import { MaintenanceReader } from '@bo/domain';
import { createRateLimit, type RateLimit } from '@bo/runtime';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from './support/database.js';

/**
 * What the guard knows in memory it answers without a promise (an await per check cost a read by id
 * a few per cent of its CPU): the rate limit's counted block and the maintenance windows read. Each
 * answer must stay what the store would say: every request counted, every window seen once read.
 */
let db: TestDatabase;
let prisma: PrismaClient;
let limit: RateLimit;
let admin: pg.Pool;

beforeAll(async () => {
  db = await createTestDatabase();
  prisma = createPrismaClient(db.url, { max: 2 });
  // 400 a minute: blocks of 4 once the budget is roomy (rate-limit.ts)
  limit = await createRateLimit({ connectionString: db.url }, { perMinute: 400, authFailuresPerMinute: 2, poolSize: 2 });
  admin = new pg.Pool({ connectionString: db.url, max: 1 });
});
afterAll(async () => {
  await limit?.close();
  await admin?.end();
  await prisma?.$disconnect();
  await db?.drop();
});

const isPromise = (v: unknown): v is Promise<unknown> => v instanceof Promise;

describe('the guard answers from memory what it holds, as the store would', () => {
  it('the rate limit answers a request from the counted block without a promise, and the store has counted it before', async () => {
    const answers: { sync: boolean; remaining: number | undefined }[] = [];
    for (let i = 0; i < 6; i += 1) {
      const decision = limit.consume('token:block');
      const sync = !isPromise(decision);
      answers.push({ sync, remaining: (await decision)?.remaining });
    }
    // the first takes one point from the store, the second a block of 4 (one for itself), the next
    // three come from that block, the sixth goes to the store again
    expect(answers).toEqual([
      { sync: false, remaining: 399 },
      { sync: false, remaining: 398 },
      { sync: true, remaining: 397 },
      { sync: true, remaining: 396 },
      { sync: true, remaining: 395 },
      { sync: false, remaining: 394 },
    ]);
    // every point answered was counted in the store first (the sixth's block of 4 taken whole)
    const { rows } = await admin.query<{ points: number }>(
      "SELECT points FROM rate_limit.counter WHERE key = 'rlflx:token:block'",
    );
    expect(rows[0]?.points).toBe(9);
  });

  it('the failed-authentication throttle asks for the address only while some address is refused', async () => {
    let asked = 0;
    const address = (a: string) => () => {
      asked += 1;
      return a;
    };
    expect(limit.authAllowed(address('10.0.0.1'))).toBeNull();
    expect(asked).toBe(0);
    await limit.authFailed('10.0.0.1');
    await limit.authFailed('10.0.0.1');
    expect(limit.authAllowed(address('10.0.0.1'))).toMatchObject({ allowed: false, limit: 2 });
    expect(limit.authAllowed(address('10.0.0.2'))).toBeNull();
    expect(asked).toBe(2);
  });

  it('the maintenance windows read are answered at once while fresh, and read again once stale', async () => {
    const reader = new MaintenanceReader(prisma, 300);
    // nothing read yet: the door must ask the database
    expect(reader.current('acme')).toBeUndefined();
    expect(await reader.forEnvironment('acme')).toBeNull();
    expect(reader.current('acme')).toBeNull();
    await prisma.maintenanceWindow.create({ data: { scope: 'acme', message: 'moving racks' } });
    // within the reader's time a window scheduled meanwhile may not be seen yet (the documented delay) …
    expect(reader.current('acme')).toBeNull();
    await new Promise((r) => setTimeout(r, 350));
    // … past it the answer from memory is refused and the read sees the window
    expect(reader.current('acme')).toBeUndefined();
    expect(await reader.forEnvironment('acme')).toMatchObject({ scope: 'acme', message: 'moving racks' });
    expect(reader.current('acme')).toMatchObject({ scope: 'acme' });
    expect(reader.current('other')).toBeNull();
  });
});
