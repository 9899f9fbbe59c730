// Everything the service uses of pg's private state, and nothing else, is in this module:
// pg's types and documentation do not promise any of it, so a pg release may rename or drop
// it without a word. `pg` is pinned to one exact version in every package.json for that
// reason, and test/pg-internals.test.ts checks each name below on a client connected to the
// real server: an upgrade that breaks one fails there, naming it, not in production.
//
// What is used, and why:
// - Client#pipeline: pg's pipeline mode, switched on for one transaction of our own and off
//   again (a create's statements leave in one write; see sqlTransaction in tenant.ts).
// - Connection#parsedStatements, #submittedNamedStatements: pg's memory of the statements
//   prepared on the connection; a statement we deallocate must be forgotten there too, or
//   pg would execute it without parsing it again (see PreparingClient in pool.ts).
// - Connection#stream: the socket, corked while a transaction queues statements (one write
//   for several) and destroyed to drop a listening connection whose peer has vanished.
// - Client#processID, #secretKey (with the public host and port): the backend's key, for
//   PostgreSQL's CancelRequest, sent here on a connection of its own.
//
// Each function is a field read or write, without allocation: some run per statement.
import net from 'node:net';
import type pg from 'pg';

/** The private fields of a pg client this module relies on. */
interface ClientInternals {
  pipeline: boolean;
  processID: number | null;
  secretKey: number | null;
  host?: string;
  port?: number;
  connection: ConnectionInternals;
}

interface ConnectionInternals {
  parsedStatements: Record<string, string>;
  submittedNamedStatements?: Record<string, string>;
  stream?: Partial<CorkableStream & { destroy(): void }>;
}

/** A socket that holds what is written to it until uncorked. */
export interface CorkableStream {
  cork(): void;
  uncork(): void;
}

function internals(client: pg.ClientBase): ClientInternals {
  return client as unknown as ClientInternals;
}

/** Whether the client is in pg's pipeline mode: a query is written at once, without waiting for the ones before it. */
export function isPipelined(client: pg.ClientBase): boolean {
  return internals(client).pipeline === true;
}

/** Switches pg's pipeline mode on or off (only between transactions, with nothing in flight). */
export function setPipelined(client: pg.ClientBase, on: boolean): void {
  internals(client).pipeline = on;
}

/** Makes pg forget a named statement it prepared on the connection (to be deallocated on the server). */
export function forgetPreparedStatement(client: pg.ClientBase, name: string): void {
  const { connection } = internals(client);
  delete connection.parsedStatements[name];
  delete connection.submittedNamedStatements?.[name];
}

/** The client's socket, to cork and uncork; null where the stream cannot be corked. */
export function corkableStream(client: pg.ClientBase): CorkableStream | null {
  const stream = internals(client).connection?.stream;
  return stream?.cork && stream.uncork ? (stream as CorkableStream) : null;
}

/** Destroys the client's socket, which ends the client (end() would wait for a peer that is gone). */
export function destroySocket(client: pg.ClientBase): void {
  internals(client).connection?.stream?.destroy?.();
}

/** the CancelRequest code of PostgreSQL's protocol (1234 << 16 | 5678) */
const CANCEL_REQUEST_CODE = 80877102;

/**
 * PostgreSQL's own CancelRequest (what psql sends on Ctrl-C): a 16-byte packet on a new
 * connection naming the backend and its secret key; no authentication, no statement.
 * Does nothing for a client that has no backend key (not connected, or the embedded database).
 */
export function sendCancelRequest(client: pg.ClientBase): void {
  const c = internals(client);
  if (typeof c.processID !== 'number' || typeof c.secretKey !== 'number') return;
  const packet = Buffer.alloc(16);
  packet.writeInt32BE(16, 0);
  packet.writeInt32BE(CANCEL_REQUEST_CODE, 4);
  packet.writeInt32BE(c.processID, 8);
  packet.writeInt32BE(c.secretKey, 12);
  const host = c.host ?? 'localhost';
  const socket = host.startsWith('/') ? net.connect(`${host}/.s.PGSQL.${c.port ?? 5432}`) : net.connect(c.port ?? 5432, host);
  socket.setTimeout(5_000, () => socket.destroy());
  socket.on('error', () => {}); // the statement has ended on its own, or the server is gone
  socket.on('connect', () => socket.end(packet));
}

/**
 * What this module needs of a connected pg client and does not find, one line per field or
 * method, named (`pg.Client#pipeline: …`); empty when everything is there. The tripwire test
 * calls it on a client connected to the real server.
 */
export function missingPgInternals(client: pg.ClientBase): string[] {
  const problems: string[] = [];
  const c = client as unknown as Record<string, unknown>;
  const expect = (owner: string, value: unknown, field: string, type: string) => {
    const found = value === null ? 'null' : typeof value;
    if (found !== type) problems.push(`${owner}#${field}: expected ${type}, found ${found}`);
  };
  expect('pg.Client', c.pipeline, 'pipeline', 'boolean');
  expect('pg.Client', c.processID, 'processID', 'number');
  expect('pg.Client', c.secretKey, 'secretKey', 'number');
  expect('pg.Client', c.host, 'host', 'string');
  expect('pg.Client', c.port, 'port', 'number');
  expect('pg.Client', c.connection, 'connection', 'object');
  const connection = (c.connection ?? {}) as Record<string, unknown>;
  expect('pg.Connection', connection.parsedStatements, 'parsedStatements', 'object');
  expect('pg.Connection', connection.submittedNamedStatements, 'submittedNamedStatements', 'object');
  expect('pg.Connection', connection.stream, 'stream', 'object');
  const stream = (connection.stream ?? {}) as Record<string, unknown>;
  for (const method of ['cork', 'uncork', 'destroy']) expect('pg.Connection#stream', stream[method], method, 'function');
  return problems;
}
