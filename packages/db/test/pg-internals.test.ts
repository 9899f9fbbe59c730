// The tripwire of src/pg-internals.ts: what the service uses of pg's private state is still
// there, and still does what it is used for, on a client connected to the real local
// PostgreSQL. A pg upgrade that renames or drops one of them fails here, naming it.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type net from 'node:net';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import {
  corkableStream,
  destroySocket,
  forgetPreparedStatement,
  isPipelined,
  missingPgInternals,
  sendCancelRequest,
  setPipelined,
} from '../src/pg-internals.js';
import { GuardedPool, PREPARED } from '../src/pool.js';

const url = process.env.TEST_PG_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const require = createRequire(import.meta.url);

const opened: pg.Client[] = [];
async function connected(): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => {}); // a destroyed socket is the point of one test
  await client.connect();
  opened.push(client);
  return client;
}

afterEach(async () => {
  await Promise.all(opened.splice(0).map((c) => c.end().catch(() => {})));
});

function installedPg(): string {
  const dir = path.dirname(path.dirname(require.resolve('pg')));
  return (JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version: string }).version;
}

function socketOf(client: pg.Client): net.Socket {
  const stream = corkableStream(client);
  if (!stream) throw new Error('pg.Connection#stream: no corkable stream on a connected client');
  return stream as net.Socket;
}

describe('pg internals (src/pg-internals.ts)', () => {
  it('pg is pinned to one exact version, the one installed, in packages/db/package.json', () => {
    const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    expect(manifest.dependencies.pg, 'packages/db/package.json pins pg exactly').toMatch(/^\d+\.\d+\.\d+$/);
    expect(installedPg(), 'the installed pg is the pinned one (pg-internals.ts was checked against it)').toBe(
      manifest.dependencies.pg,
    );
  });

  it('a connected client has every private field and method the module relies on', async () => {
    const client = await connected();
    expect(missingPgInternals(client), `pg ${installedPg()} no longer has what src/pg-internals.ts relies on`).toEqual([]);
  });

  it('a client of a guarded pool (our own Client subclass) has them too', async () => {
    const pool = new GuardedPool({ connectionString: url, max: 1 }, { embedded: false, idleTimeoutMs: 10_000 });
    try {
      const client = await pool.connect();
      try {
        expect(missingPgInternals(client), `pg ${installedPg()} no longer has what src/pg-internals.ts relies on`).toEqual([]);
      } finally {
        client.release();
      }
    } finally {
      await pool.end();
    }
  });

  it('pg.Client#pipeline: switched on, a query is written at once behind the one before it; switched off, it waits', async () => {
    const client = await connected();
    const socket = socketOf(client);
    const written = (send: () => void) => {
      const before = socket.bytesWritten;
      send();
      return socket.bytesWritten - before;
    };
    expect(isPipelined(client), 'pg.Client#pipeline is off by default').toBe(false);
    // off: the second query waits in pg's queue until the first has answered
    const slow = client.query('SELECT pg_sleep(0.05)');
    const waiting = written(() => void client.query('SELECT 1'));
    expect(waiting, 'pg.Client#pipeline off: a query sent while another runs waits').toBe(0);
    await slow;
    setPipelined(client, true);
    expect(isPipelined(client)).toBe(true);
    const first = client.query('SELECT pg_sleep(0.05)');
    const second = written(() => void client.query('SELECT 2 AS v'));
    expect(second, 'pg.Client#pipeline on: a query is written without waiting for the one before').toBeGreaterThan(0);
    await first;
    setPipelined(client, false);
    expect(isPipelined(client)).toBe(false);
    // and the connection goes on as before once switched off
    expect((await client.query('SELECT 3 AS v')).rows).toEqual([{ v: 3 }]);
  });

  it('pg.Connection#parsedStatements: a deallocated statement forgotten there is prepared again', async () => {
    const client = await connected();
    const named = { name: 'bo_tripwire', text: 'SELECT $1::int + 1 AS v', values: [1] };
    expect((await client.query(named)).rows).toEqual([{ v: 2 }]);
    await client.query('DEALLOCATE "bo_tripwire"');
    // pg remembers the statement as prepared: without forgetting it, it is executed unparsed
    await expect(client.query(named), 'pg no longer remembers prepared statements per connection').rejects.toMatchObject({
      code: '26000',
    });
    forgetPreparedStatement(client, 'bo_tripwire');
    expect(
      (await client.query(named)).rows,
      'pg.Connection#parsedStatements: forgetting a statement makes pg prepare it again',
    ).toEqual([{ v: 2 }]);
  });

  it('a guarded pool still prepares, deallocates and prepares again past its bound (PREPARED)', async () => {
    const pool = new GuardedPool({ connectionString: url, max: 1 }, { embedded: false, idleTimeoutMs: 10_000 });
    try {
      const r = await pool.query({ name: PREPARED, text: 'SELECT $1::int * 2 AS v', values: [21] });
      expect(r.rows).toEqual([{ v: 42 }]);
    } finally {
      await pool.end();
    }
  });

  it('pg.Connection#stream: corked, what is written stays in the socket until uncorked', async () => {
    const client = await connected();
    const stream = corkableStream(client);
    expect(stream, 'pg.Connection#stream has cork and uncork').not.toBeNull();
    const socket = stream as net.Socket;
    stream?.cork();
    expect(socket.writableCorked).toBe(1);
    const answer = client.query('SELECT 4 AS v');
    expect(socket.writableLength, 'corked: the query is held in the socket').toBeGreaterThan(0);
    stream?.uncork();
    expect(socket.writableCorked).toBe(0);
    expect((await answer).rows).toEqual([{ v: 4 }]);
  });

  it('pg.Connection#stream: destroying it ends the client', async () => {
    const client = await connected();
    const ended = new Promise<void>((resolve) => client.once('end', () => resolve()));
    destroySocket(client);
    await ended;
    await expect(client.query('SELECT 1')).rejects.toThrow();
  });

  it('pg.Client#processID and #secretKey: a CancelRequest built from them stops the running statement (57014)', async () => {
    const client = await connected();
    const watcher = await connected();
    const pid = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]?.pid;
    const running = client.query('SELECT pg_sleep(10)');
    const outcome = running.then(
      () => 'finished',
      (err: { code?: string }) => err.code,
    );
    // sent once the statement runs (a cancel that reaches the backend between messages is dropped)
    for (let i = 0; i < 100; i += 1) {
      const state = await watcher.query<{ state: string }>('SELECT state FROM pg_stat_activity WHERE pid = $1', [pid]);
      if (state.rows[0]?.state === 'active') break;
      await new Promise((r) => setTimeout(r, 20));
    }
    const started = performance.now();
    sendCancelRequest(client);
    expect(await outcome, 'pg.Client#processID/#secretKey: the cancel request names the backend').toBe('57014');
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});
