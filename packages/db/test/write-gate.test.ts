// The request's write gate (WriteGate in src/pool.ts): what a request must do before its first
// write (its Idempotency-Key's claim). A write transaction of our own carries it as its first
// statement, in the same transaction; every other statement that may write, and every connection
// checked out, passes it first; plain reads go by. Against the real local PostgreSQL server.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPrismaClient, rawRead } from '../src/client.js';
import { runInRequestScope, setRequestWriteGate, sqlError, type WriteGate } from '../src/pool.js';
import { tenantSql } from '../src/tenant.js';

const url = process.env.TEST_PG_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const table = `bo_write_gate_${randomBytes(4).toString('hex')}`;
const prisma = createPrismaClient(url, { max: 2 });
const read = rawRead(prisma);

/** A gate that records what was asked of it; its carried statement notes the transaction it ran in. */
class RecordingGate implements WriteGate {
  passes = 0;
  outcomes: { committed: boolean; code: unknown }[] = [];
  state: 'pending' | 'carrying' | 'passed' = 'pending';
  constructor(private readonly carriedNote: string) {}
  get passed() {
    return this.state === 'passed';
  }
  async pass() {
    this.passes += 1;
    this.state = 'passed';
  }
  carry() {
    if (this.state !== 'pending') return null;
    this.state = 'carrying';
    return {
      text: `INSERT INTO ${table} (environment_id, note, xid) VALUES ($1, $2, txid_current())`,
      values: ['gate', this.carriedNote],
    };
  }
  carried(committed: boolean, failure: unknown) {
    const code = (failure as { code?: unknown } | undefined)?.code;
    this.outcomes.push({ committed, code });
    this.state = committed ? 'passed' : 'pending';
    return code === '23505' ? new Error('held by another') : undefined;
  }
}

function inRequest<T>(gate: WriteGate, fn: () => Promise<T>): Promise<T> {
  return runInRequestScope({ key: 'environment:gate', signal: new AbortController().signal }, () => {
    setRequestWriteGate(gate);
    return fn();
  });
}

const transaction = (environment: string) => {
  const sql = tenantSql(prisma, environment);
  if (!sql.transaction) throw new Error('a client made here has its pool known');
  return sql.transaction.bind(sql);
};

beforeAll(async () => {
  await read(
    `CREATE TABLE ${table} (environment_id text NOT NULL, note text NOT NULL UNIQUE, xid bigint NOT NULL DEFAULT txid_current())`,
    [],
  );
});
afterAll(async () => {
  await read(`DROP TABLE IF EXISTS ${table}`, []);
  await prisma.$disconnect();
});

describe('the write gate', () => {
  it('a write transaction of our own carries it as its first statement, in the same transaction, and passes it by committing', async () => {
    const gate = new RecordingGate('carried-1');
    await inRequest(gate, () =>
      transaction('env-a')(async (reader) => {
        await reader.queue(`INSERT INTO ${table} (environment_id, note) VALUES ($1, 'written-1')`);
      }),
    );
    const rows = await read<{ note: string; xid: string }>(
      `SELECT note, xid::text FROM ${table} WHERE note IN ('carried-1', 'written-1') ORDER BY note`,
      [],
    );
    expect(rows.map((r) => r.note)).toEqual(['carried-1', 'written-1']);
    expect(rows[0]?.xid).toBe(rows[1]?.xid);
    expect(gate.passes).toBe(0);
    expect(gate.outcomes).toEqual([{ committed: true, code: undefined }]);
    expect(gate.passed).toBe(true);
  });

  it("the carried statement's failure rolls the write back, and the gate's error is thrown instead", async () => {
    // 'carried-1' is taken: the carried INSERT fails with a unique violation
    const gate = new RecordingGate('carried-1');
    const attempt = inRequest(gate, () =>
      transaction('env-b')(async (reader) => {
        await reader.queue(`INSERT INTO ${table} (environment_id, note) VALUES ($1, 'written-2')`);
        await reader.read('SELECT $1::text');
      }),
    );
    await expect(attempt).rejects.toThrow('held by another');
    expect(gate.outcomes).toEqual([{ committed: false, code: '23505' }]);
    expect(await read(`SELECT 1 FROM ${table} WHERE note = 'written-2'`, [])).toEqual([]);
  });

  it('a transaction that fails for another reason leaves the gate to the next write', async () => {
    const gate = new RecordingGate('carried-3');
    const attempt = inRequest(gate, () =>
      transaction('env-c')(async () => {
        throw sqlError('23514', 'a check of the write itself');
      }),
    );
    await expect(attempt).rejects.toMatchObject({ code: '23514' });
    expect(gate.outcomes).toEqual([{ committed: false, code: '23514' }]);
    expect(gate.passed).toBe(false);
    expect(await read(`SELECT 1 FROM ${table} WHERE note = 'carried-3'`, [])).toEqual([]);
  });

  it('plain reads go by; a statement that may write, and a connection checked out, pass it first', async () => {
    const readOnly = new RecordingGate('unused-r');
    await inRequest(readOnly, async () => {
      await read(`SELECT count(*) FROM ${table} WHERE note <> 'updated_at'`, []);
      await read(`WITH x AS (SELECT 1 AS n) SELECT n FROM x`, []);
    });
    // a WITH is not known to read only: it passes (the cost of a claim, never a write unclaimed)
    expect(readOnly.passes).toBe(1);

    const writes = new RecordingGate('unused-w');
    await inRequest(writes, async () => {
      await read(`SELECT count(*) FROM ${table}`, []);
      expect(writes.passes).toBe(0);
      await read(`UPDATE ${table} SET environment_id = environment_id WHERE note = 'none'`, []);
    });
    expect(writes.passes).toBe(1);

    const checkout = new RecordingGate('unused-c');
    await inRequest(checkout, async () => {
      await prisma.$transaction(async (tx) => tx.$queryRawUnsafe('SELECT 1'));
    });
    expect(checkout.passes).toBe(1);
  });
});
