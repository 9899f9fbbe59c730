// Raw reads prepared per connection (src/pool.ts PreparingClient) against the real local
// PostgreSQL server: planned once per connection, and never more than the bound kept.
import { describe, expect, it } from 'vitest';
import { GuardedPool, PREPARED, PREPARED_PER_CONNECTION } from '../src/pool.js';

const url = process.env.TEST_PG_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

describe('prepared reads', () => {
  it(`a connection keeps at most ${PREPARED_PER_CONNECTION} prepared statements, the least recently used deallocated`, async () => {
    const pool = new GuardedPool({ connectionString: url, max: 1 }, { embedded: false, idleTimeoutMs: 10_000 });
    // deallocating never overlaps a query on the connection (pg warns of that, and pg 9 refuses it)
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(`${w.name}: ${w.message}`);
    process.on('warning', onWarning);
    try {
      const prepared = async () =>
        Number((await pool.query<{ n: string }>('SELECT count(*)::text AS n FROM pg_prepared_statements')).rows[0]?.n);
      // one statement read twice is prepared once
      for (let i = 0; i < 2; i += 1) {
        const r = await pool.query({ name: PREPARED, text: 'SELECT $1::int + 1 AS v', values: [41] });
        expect(r.rows[0]).toEqual({ v: 42 });
      }
      expect(await prepared()).toBe(1);
      // more distinct statements than the bound: every answer right, the bound kept
      for (let i = 0; i < PREPARED_PER_CONNECTION + 50; i += 1) {
        const r = await pool.query({ name: PREPARED, text: `SELECT $1::int + ${i} AS v`, values: [1] });
        expect(r.rows[0]).toEqual({ v: 1 + i });
      }
      expect(await prepared()).toBe(PREPARED_PER_CONNECTION);
      // the first ones were deallocated; asked again, they are prepared again and still answer
      const again = await pool.query({ name: PREPARED, text: 'SELECT $1::int + 0 AS v', values: [5] });
      expect(again.rows[0]).toEqual({ v: 5 });
      expect(await prepared()).toBe(PREPARED_PER_CONNECTION);
      // and through a checked-out client (promise style), as transactions use it
      const client = await pool.connect();
      try {
        const r = await client.query({ name: PREPARED, text: 'SELECT $1::int * 2 AS v', values: [21] });
        expect(r.rows[0]).toEqual({ v: 42 });
      } finally {
        client.release();
      }
      await new Promise((r) => setImmediate(r));
      expect(warnings).toEqual([]);
    } finally {
      process.off('warning', onWarning);
      await pool.end();
    }
  });

  it('a statement that fails to prepare answers its error and leaves the connection usable', async () => {
    const pool = new GuardedPool({ connectionString: url, max: 1 }, { embedded: false, idleTimeoutMs: 10_000 });
    try {
      await expect(pool.query({ name: PREPARED, text: 'SELECT nope FROM nowhere', values: [] })).rejects.toThrow(/nowhere/);
      await expect(pool.query({ name: PREPARED, text: 'SELECT nope FROM nowhere', values: [] })).rejects.toThrow(/nowhere/);
      const r = await pool.query({ name: PREPARED, text: 'SELECT 7 AS v', values: [] });
      expect(r.rows[0]).toEqual({ v: 7 });
    } finally {
      await pool.end();
    }
  });
});
