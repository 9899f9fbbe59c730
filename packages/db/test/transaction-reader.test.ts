// A write transaction's tenant reader (src/tenant.ts inTransaction) sends its statements on the
// connection Prisma's interactive transaction holds, against the real local PostgreSQL server:
// the same session and transaction as Prisma's own statements, whatever runs beside it.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPrismaClient, rawScript } from '../src/client.js';
import { runInRequestScope } from '../src/pool.js';
import { inTransaction, transactionReader } from '../src/tenant.js';

const url = process.env.TEST_PG_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const table = `bo_tx_reader_${randomBytes(4).toString('hex')}`;
const logged: string[] = [];
const prisma = createPrismaClient(url, { max: 3, onQuery: (sql) => logged.push(sql) });

// the transaction's id and session, as Prisma's statement sees them and as the reader's does
const WHERE = 'SELECT txid_current()::text AS tx, pg_backend_pid() AS pid';

interface Where {
  tx: string;
  pid: number;
  environment?: string;
  n?: unknown;
}
interface Sides {
  mine: Where | undefined;
  its: Where | undefined;
}

async function write(environment: string, failAfterWrites = false): Promise<Sides> {
  return inTransaction(
    (run: (tx: Parameters<Parameters<typeof prisma.$transaction>[0]>[0]) => Promise<Sides>) => prisma.$transaction(run),
    environment,
    async (tx, reader) => {
      const [mine] = await tx.$queryRawUnsafe<{ tx: string; pid: number }[]>(WHERE);
      await tx.$executeRawUnsafe(`INSERT INTO ${table} (environment_id, note) VALUES ($1, 'prisma')`, environment);
      const [its] = await reader.read<{ tx: string; pid: number; environment: string; n: unknown }>(
        `${WHERE}, $1::text AS environment, 1::int8 AS n`,
      );
      await reader.write(`INSERT INTO ${table} (environment_id, note) VALUES ($1, 'reader')`);
      if (failAfterWrites) throw new Error('the use case refused');
      return { mine, its };
    },
  );
}

beforeAll(async () => {
  await prisma.$executeRawUnsafe(
    `CREATE TABLE ${table} (environment_id text NOT NULL, note text NOT NULL, kind text NOT NULL DEFAULT 'plain')`,
  );
});
afterAll(async () => {
  await prisma.$executeRawUnsafe(`DROP TABLE IF EXISTS ${table}`);
  await prisma.$disconnect();
});

describe('a write transaction and its tenant reader', () => {
  it("the reader's statements run in the transaction's own session and transaction, sent by pg itself", async () => {
    logged.length = 0;
    const { mine, its } = await write('env-a');
    expect(its?.tx).toBe(mine?.tx);
    expect(its?.pid).toBe(mine?.pid);
    // the environment is bound as $1 by the reader
    expect(its?.environment).toBe('env-a');
    // pg's own parsing (an int8 as text), not Prisma's raw-query layer (which answers a bigint)
    expect(its?.n).toBe('1');
    // still logged like every other statement of the client
    expect(logged.some((sql) => sql.includes('1::int8 AS n'))).toBe(true);
    const rows = await prisma.$queryRawUnsafe<{ note: string }[]>(
      `SELECT note FROM ${table} WHERE environment_id = 'env-a' ORDER BY note`,
    );
    expect(rows.map((r) => r.note)).toEqual(['prisma', 'reader']);
  });

  it("a use case that throws rolls back the reader's writes with Prisma's", async () => {
    await expect(write('env-b', true)).rejects.toThrow('the use case refused');
    const rows = await prisma.$queryRawUnsafe<unknown[]>(`SELECT note FROM ${table} WHERE environment_id = 'env-b'`);
    expect(rows).toEqual([]);
  });

  it('transactions at once on a small pool, inside request scopes and outside: each reader on its own transaction', async () => {
    const scope = (key: string) => ({ key, signal: new AbortController().signal });
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        i % 2 === 0 ? runInRequestScope(scope(`env-${i}`), () => write(`env-c${i}`)) : write(`env-c${i}`),
      ),
    );
    for (const { mine, its } of results) {
      expect(its?.tx).toBe(mine?.tx);
      expect(its?.pid).toBe(mine?.pid);
    }
    expect(new Set(results.map((r) => r.mine?.tx)).size).toBe(12);
  });

  it("insert writes one row of the reader's environment; undefined columns keep their defaults; names are checked identifiers", async () => {
    await inTransaction(
      (run: (tx: Parameters<Parameters<typeof prisma.$transaction>[0]>[0]) => Promise<void>) => prisma.$transaction(run),
      'env-e',
      async (_tx, reader) => {
        // an environment_id among the columns is not the caller's to choose
        await reader.insert(table, { note: 'inserted', kind: undefined, environment_id: 'env-other' });
        await expect(reader.insert(table, { 'note"; DROP TABLE x; --': 'x' })).rejects.toThrow(/unsafe identifier/);
      },
    );
    const rows = await prisma.$queryRawUnsafe<{ environment_id: string; note: string; kind: string }[]>(
      `SELECT environment_id, note, kind FROM ${table} WHERE note = 'inserted'`,
    );
    expect(rows).toEqual([{ environment_id: 'env-e', note: 'inserted', kind: 'plain' }]);
  });

  it('a reader made for a transaction without its connection goes through Prisma, in the same transaction', async () => {
    const { mine, its } = await prisma.$transaction(async (tx) => {
      const reader = transactionReader(tx, 'env-d');
      const [m] = await tx.$queryRawUnsafe<{ tx: string }[]>(WHERE);
      const [i] = await reader.read<{ tx: string; n: unknown }>(`${WHERE}, $1::text AS environment, 1::int8 AS n`);
      return { mine: m, its: i };
    });
    expect(its?.tx).toBe(mine?.tx);
    expect(typeof its?.n).toBe('bigint');
  });

  it('rawScript: statements in one round trip as one transaction; an error rolls them all back and the connection goes on', async () => {
    logged.length = 0;
    const rows = await rawScript(prisma)<{ lt: string; held: string }>([
      `SET LOCAL lock_timeout = '50ms'`,
      `LOCK TABLE ${table} IN SHARE MODE`,
      `SELECT current_setting('lock_timeout') AS lt,
              (SELECT count(*)::text FROM pg_locks WHERE relation = '${table}'::regclass AND mode = 'ShareLock' AND pid = pg_backend_pid()) AS held`,
    ]);
    expect(rows).toEqual([{ lt: '50ms', held: '1' }]);
    expect(logged.filter((sql) => sql.includes('LOCK TABLE'))).toHaveLength(1);
    await expect(
      rawScript(prisma)([`INSERT INTO ${table} (environment_id, note) VALUES ('env-f', 'rolled back')`, 'SELECT 1/0']),
    ).rejects.toThrow(/division by zero/);
    expect(await prisma.$queryRawUnsafe(`SELECT 1 FROM ${table} WHERE environment_id = 'env-f'`)).toEqual([]);
    // every connection of the pool is idle again: the setting did not outlive its transaction
    const after = await Promise.all(
      [1, 2, 3].map(() => rawScript(prisma)<{ lt: string }>([`SELECT current_setting('lock_timeout') AS lt, pg_sleep(0.01)`])),
    );
    for (const [r] of after) expect(r?.lt).toBe('0');
  });
});
