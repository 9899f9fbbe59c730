import { createServer, type Server, type Socket, connect } from 'node:net';
import type { AddressInfo } from 'node:net';

/** One statement a client sent to PostgreSQL, as seen on the wire. */
export interface LoggedStatement {
  /** the client connection it came on (1, 2, … in order of connection) */
  connection: number;
  sql: string;
  /** the name of the prepared statement it ran ('' for an unnamed one or a simple query) */
  prepared: string;
  /**
   * which of the connection's round trips it went in: statements with the same number were sent
   * one behind the other without the server answering anything in between (pipelined)
   */
  roundTrip: number;
}

export interface StatementLog {
  /** the database URL to hand the service: the same database, through the log */
  url: string;
  /** every statement since the last clear, in the order they were sent */
  readonly statements: LoggedStatement[];
  clear(): void;
  close(): Promise<void>;
}

const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;

/**
 * Reads the frontend messages of one connection: a simple query ('Q') is one statement,
 * and so is each Execute ('E') of the extended protocol, with the text of the statement
 * its portal was bound to (Parse 'P' → Bind 'B' → Execute 'E').
 */
class FrontendReader {
  private buffer: Buffer = Buffer.alloc(0);
  private untyped = true;
  private readonly parsed = new Map<string, string>();
  private readonly portals = new Map<string, { sql: string; name: string }>();

  constructor(private readonly onStatement: (sql: string, prepared: string) => void) {}

  push(chunk: Buffer): void {
    this.buffer = this.buffer.length ? Buffer.concat([this.buffer, chunk]) : chunk;
    for (;;) {
      if (this.untyped) {
        // the start-up message (or an SSL/GSS request before it) has no type byte
        if (this.buffer.length < 8) return;
        const len = this.buffer.readInt32BE(0);
        if (this.buffer.length < len) return;
        const code = this.buffer.readInt32BE(4);
        this.buffer = this.buffer.subarray(len);
        if (code !== SSL_REQUEST && code !== GSSENC_REQUEST) this.untyped = false;
        continue;
      }
      if (this.buffer.length < 5) return;
      const type = String.fromCharCode(this.buffer[0] as number);
      const len = this.buffer.readInt32BE(1);
      if (this.buffer.length < 1 + len) return;
      const body = this.buffer.subarray(5, 1 + len);
      this.buffer = this.buffer.subarray(1 + len);
      this.message(type, body);
    }
  }

  private message(type: string, body: Buffer): void {
    const strings = (n: number): string[] => {
      const out: string[] = [];
      let at = 0;
      for (let i = 0; i < n; i += 1) {
        const end = body.indexOf(0, at);
        out.push(body.toString('utf8', at, end));
        at = end + 1;
      }
      return out;
    };
    if (type === 'Q') this.onStatement(strings(1)[0] as string, '');
    else if (type === 'P') {
      const [name, sql] = strings(2);
      this.parsed.set(name as string, sql as string);
    } else if (type === 'B') {
      const [portal, statement] = strings(2);
      this.portals.set(portal as string, { sql: this.parsed.get(statement as string) ?? '?', name: statement as string });
    } else if (type === 'E') {
      const [portal] = strings(1);
      const bound = this.portals.get(portal as string);
      this.onStatement(bound?.sql ?? '?', bound?.name ?? '');
    }
  }
}

/**
 * A TCP relay in front of a PostgreSQL server that logs every statement its clients send
 * (bytes pass through untouched): how tests and tools count the statements of one request
 * over the real wire, whatever library sent them. Plain connections only (no TLS to the server).
 */
export async function startStatementLog(databaseUrl: string): Promise<StatementLog> {
  const target = new URL(databaseUrl);
  const statements: LoggedStatement[] = [];
  const sockets = new Set<Socket>();
  let connections = 0;
  const server: Server = createServer((client) => {
    connections += 1;
    const connection = connections;
    // a new round trip begins with the first client bytes after the server has answered something
    let roundTrip = 0;
    let answered = true;
    const reader = new FrontendReader((sql, prepared) => statements.push({ connection, sql, prepared, roundTrip }));
    const upstream = connect(Number(target.port || 5432), target.hostname);
    sockets.add(client);
    sockets.add(upstream);
    client.on('data', (chunk: Buffer) => {
      if (answered) {
        roundTrip += 1;
        answered = false;
      }
      reader.push(chunk);
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      answered = true;
      client.write(chunk);
    });
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('close', end);
    upstream.on('close', end);
    client.on('error', end);
    upstream.on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(databaseUrl);
  url.hostname = '127.0.0.1';
  url.port = String((server.address() as AddressInfo).port);
  return {
    url: url.toString(),
    statements,
    clear() {
      statements.length = 0;
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * The transactions in a log: per connection, the statements from a BEGIN to its COMMIT
 * or ROLLBACK (both included).
 */
export function transactionsOf(statements: readonly LoggedStatement[]): LoggedStatement[][] {
  const open = new Map<number, LoggedStatement[]>();
  const done: LoggedStatement[][] = [];
  for (const s of statements) {
    const verb = s.sql.trim().split(/\s+/)[0]?.toUpperCase();
    if (verb === 'BEGIN' || verb === 'START') open.set(s.connection, [s]);
    else {
      const tx = open.get(s.connection);
      if (!tx) continue;
      tx.push(s);
      if (verb === 'COMMIT' || verb === 'ROLLBACK') {
        done.push(tx);
        open.delete(s.connection);
      }
    }
  }
  return done;
}
