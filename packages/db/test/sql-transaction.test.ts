// A write transaction of our own (TenantSql.transaction in src/tenant.ts): BEGIN, the tenant
// reader's statements and COMMIT on one connection of the guarded pool, without Prisma, with
// statements nobody needs an answer of written at once (pg's pipeline mode), against the real
// local PostgreSQL server.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPrismaClient, rawRead } from '../src/client.js';
import { PREPARED_PER_CONNECTION } from '../src/pool.js';
import { tenantSql } from '../src/tenant.js';

const url = process.env.TEST_PG_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const table = `bo_sql_tx_${randomBytes(4).toString('hex')}`;
// one connection: what one transaction leaves on it, the next one finds
const prisma = createPrismaClient(url, { max: 1 });
const read = rawRead(prisma);
const other = new pg.Client({ connectionString: url });

const notes = async (environment: string) =>
  (await read<{ note: string }>(`SELECT note FROM ${table} WHERE environment_id = $1 ORDER BY note`, [environment])).map(
    (r) => r.note,
  );

function transaction(environment: string) {
  const sql = tenantSql(prisma, environment);
  if (!sql.transaction) throw new Error('a client made here has its pool known');
  return sql.transaction.bind(sql);
}

beforeAll(async () => {
  await other.connect();
  await read(`CREATE TABLE ${table} (environment_id text NOT NULL, note text NOT NULL, kind text NOT NULL DEFAULT 'plain')`, []);
});
afterAll(async () => {
  await read(`DROP TABLE IF EXISTS ${table}`, []);
  await other.end();
  await prisma.$disconnect();
});

describe('a write transaction of our own', () => {
  it('queued writes and waited-for statements run in order in one transaction, committed together', async () => {
    const seen = await transaction('env-a')(async (reader) => {
      await reader.queue(`INSERT INTO ${table} (environment_id, note) VALUES ($1, 'first')`);
      await reader.insert(table, { note: 'second' });
      // the read is written behind the queued writes and sees them
      const rows = await reader.read<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE environment_id = $1`);
      // not yet visible to anyone else
      const outside = await other.query(`SELECT count(*)::int AS n FROM ${table} WHERE environment_id = 'env-a'`);
      return { inside: rows[0]?.n, outside: outside.rows[0]?.n };
    });
    expect(seen).toEqual({ inside: 2, outside: 0 });
    expect(await notes('env-a')).toEqual(['first', 'second']);
  });

  it("a queued write's failure fails the next statement waited for, with its own error, and nothing is written", async () => {
    const attempt = transaction('env-b')(async (reader) => {
      await reader.queue(`INSERT INTO ${table} (environment_id, note) VALUES ($1, 'kept?')`);
      await reader.queue(`INSERT INTO ${table} (environment_id, note) VALUES ($1, NULL)`);
      await reader.read('SELECT $1::text');
    });
    // the NOT NULL violation itself, not "current transaction is aborted" of the read behind it
    await expect(attempt).rejects.toMatchObject({ code: '23502' });
    expect(await notes('env-b')).toEqual([]);
  });

  it('a queued write that fails with nothing waited for after it fails the commit, and nothing is written', async () => {
    const attempt = transaction('env-c')(async (reader) => {
      await reader.queue(`INSERT INTO ${table} (environment_id, note) VALUES ($1, 'kept?')`);
      await reader.queue(`INSERT INTO ${table} (environment_id, note) VALUES ($1, NULL)`);
      return 'done';
    });
    await expect(attempt).rejects.toMatchObject({ code: '23502' });
    expect(await notes('env-c')).toEqual([]);
  });

  it('a queued write is not waited for: it returns while the server still holds it', async () => {
    const key = 7_000_000 + Math.floor(Math.random() * 1000);
    await other.query('SELECT pg_advisory_lock($1)', [key]);
    let queuedReturned = false;
    const done = transaction('env-d')(async (reader) => {
      // blocks on the server until the other session lets go of the lock
      await reader.queue('SELECT pg_advisory_xact_lock($2), $1::text', [key]);
      queuedReturned = true;
      await other.query('SELECT pg_advisory_unlock($1)', [key]);
      await reader.insert(table, { note: 'after the lock' });
      return (await reader.read<{ n: number }>('SELECT 1 AS n, $1::text AS e'))[0]?.n;
    });
    expect(await done).toBe(1);
    expect(queuedReturned).toBe(true);
    expect(await notes('env-d')).toEqual(['after the lock']);
  });

  it('a use case that throws rolls everything back and leaves the connection clean for the next one', async () => {
    await expect(
      transaction('env-e')(async (reader) => {
        await reader.insert(table, { note: 'gone' });
        throw new Error('the use case refused');
      }),
    ).rejects.toThrow('the use case refused');
    expect(await notes('env-e')).toEqual([]);
    // the same (only) connection: no transaction open on it, and it takes a statement at a time again
    // (the first statement of a transaction is stamped with the transaction's own start)
    const [state] = await read<{ fresh: boolean }>('SELECT now() = statement_timestamp() AS fresh', []);
    expect(state?.fresh).toBe(true);
    expect(
      await transaction('env-e')(async (reader) => (await reader.read<{ n: number }>('SELECT 2 AS n, $1::text AS e'))[0]?.n),
    ).toBe(2);
  });

  it('past its time, a write is rolled back and fails as a statement timeout', async () => {
    const attempt = transaction('env-f')(
      async (reader) => {
        await reader.insert(table, { note: 'too late' });
        await new Promise((r) => setTimeout(r, 150));
        await reader.read('SELECT $1::text');
      },
      { timeoutMs: 50 },
    );
    await expect(attempt).rejects.toMatchObject({ code: '57014' });
    expect(await notes('env-f')).toEqual([]);
  });

  it("update sets the named columns of one row of the reader's environment; undefined ones stay; names are checked", async () => {
    await read(
      `INSERT INTO ${table} (environment_id, note, kind) VALUES ('env-h', 'mine', 'plain'), ('env-other', 'mine', 'plain')`,
      [],
    );
    await read(`ALTER TABLE ${table} ADD COLUMN IF NOT EXISTS id text`, []);
    await read(`UPDATE ${table} SET id = 'row-1' WHERE note = 'mine'`, []);
    await transaction('env-h')(async (reader) => {
      await reader.update(table, 'row-1', { kind: 'changed', note: undefined, environment_id: 'env-other' });
      await expect(reader.update(table, 'row-1', { 'kind" = 1; --': 'x' })).rejects.toThrow(/unsafe identifier/);
    });
    const rows = await read<{ environment_id: string; note: string; kind: string }>(
      `SELECT environment_id, note, kind FROM ${table} WHERE id = 'row-1' ORDER BY environment_id`,
      [],
    );
    expect(rows).toEqual([
      { environment_id: 'env-h', note: 'mine', kind: 'changed' },
      { environment_id: 'env-other', note: 'mine', kind: 'plain' },
    ]);
  });

  it('prepared statements evicted while writes are queued still run in the order they were queued', async () => {
    const count = PREPARED_PER_CONNECTION + 5;
    await transaction('env-g')(async (reader) => {
      for (let n = 0; n < count; n += 1) {
        // a distinct prepared statement each: past the bound, the oldest is deallocated first
        await reader.queue(
          `INSERT INTO ${table} (environment_id, note, kind)
           SELECT $1, $2, count(*)::text FROM ${table} WHERE environment_id = $1 /* ${n} */`,
          [String(n).padStart(4, '0')],
          { stablePlan: true },
        );
      }
    });
    const rows = await read<{ note: string; kind: string }>(
      `SELECT note, kind FROM ${table} WHERE environment_id = 'env-g' ORDER BY note`,
      [],
    );
    expect(rows).toHaveLength(count);
    // each row counted the rows before it: written in the order queued
    expect(rows.every((r) => Number(r.note) === Number(r.kind))).toBe(true);
  });
});
