import { createPrismaClient, type PrismaClient, rawRead, runInRequestScope } from '@bo/db';
import { MaintenanceReader } from '@bo/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from './support/database.js';

/**
 * A read that requests of several environments await together (the maintenance windows, read
 * once for the whole process) belongs to the process, not to the request that happened to start
 * it: it neither waits in that environment's share of connections nor dies with its client. (It
 * did both: behind a neighbour's pathological reads, another environment's plain reads failed
 * with 503 "took too long" about one run in ten of hardening-pathological-filters.)
 */
let db: TestDatabase;
let prisma: PrismaClient;

beforeAll(async () => {
  db = await createTestDatabase();
  // one connection per environment, as a full share behind slow reads leaves it
  prisma = createPrismaClient(db.url, {
    max: 4,
    guards: { embedded: false, idleTimeoutMs: 10_000, statementTimeoutMs: 5_000, connectionsPerKey: 1 },
  });
});
afterAll(async () => {
  await prisma?.$disconnect();
  await db?.drop();
});

const scope = (key: string, signal = new AbortController().signal) => ({ key: `environment:${key}`, signal });

/** environment `key`'s only connection, busy for `seconds`; resolves when it is free again */
function occupy(key: string, seconds: number): Promise<unknown> {
  return runInRequestScope(scope(key), () => rawRead(prisma)('SELECT pg_sleep($1)', [seconds]));
}

describe('reads shared by every environment', () => {
  it("a read shared by several environments' requests does not wait in the share of the one that started it", async () => {
    const reader = new MaintenanceReader(prisma, 60_000);
    let busyDone = false;
    const busy = occupy('a', 1.5).then(() => {
      busyDone = true;
    });
    await new Promise((r) => setTimeout(r, 200));
    // a request of a starts the read; a request of b awaits the same one
    const fromA = runInRequestScope(scope('a'), () => reader.forEnvironment('a'));
    const fromB = runInRequestScope(scope('b'), () => reader.forEnvironment('b'));
    await expect(fromB).resolves.toBeNull();
    // answered while a's only connection was still busy: the read did not queue behind it
    expect(busyDone).toBe(false);
    await expect(fromA).resolves.toBeNull();
    await busy;
  });

  it('the client that started a shared read going away does not cancel it for the others', async () => {
    const reader = new MaintenanceReader(prisma, 60_000);
    const busy = occupy('c', 1);
    await new Promise((r) => setTimeout(r, 200));
    const gone = new AbortController();
    const fromC = runInRequestScope(scope('c', gone.signal), () => reader.forEnvironment('c'));
    const fromD = runInRequestScope(scope('d'), () => reader.forEnvironment('d'));
    gone.abort();
    await expect(fromD).resolves.toBeNull();
    // the one whose client left gets the same answer: nothing of it was running in its scope
    await expect(fromC).resolves.toBeNull();
    await busy;
  });
});
