import { createServer, connect, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A TCP proxy in front of PostgreSQL that counts the statements its clients
 * send, read off the wire protocol (pg_stat_statements is not installed here):
 * each simple Query ('Q') and each Execute ('E') of the extended protocol is one
 * statement; its text is the Query's, or the last Parse ('P') on that
 * connection. `take()` answers the statements since the last `take()`.
 */
export interface StatementProxy {
  port: number;
  take(): string[];
  close(): Promise<void>;
}

export async function startStatementProxy(target = { host: '127.0.0.1', port: 5432 }): Promise<StatementProxy> {
  let seen: string[] = [];
  const server: Server = createServer((client) => {
    const upstream = connect(target.port, target.host);
    client.pipe(upstream);
    upstream.pipe(client);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    let pending: Buffer<ArrayBufferLike> = Buffer.alloc(0);
    let started = false;
    let lastParse = '';
    client.on('data', (piece: Buffer) => {
      pending = pending.length ? Buffer.concat([pending, piece]) : piece;
      for (;;) {
        if (!started) {
          // untyped start-up messages: length, then a code (196608: start-up; else SSL/GSS requests)
          if (pending.length < 8) break;
          const len = pending.readInt32BE(0);
          if (pending.length < len) break;
          if (pending.readInt32BE(4) === 196608) started = true;
          pending = pending.subarray(len);
          continue;
        }
        if (pending.length < 5) break;
        const type = String.fromCharCode(pending[0] as number);
        const len = pending.readInt32BE(1);
        if (pending.length < 1 + len) break;
        const body = pending.subarray(5, 1 + len);
        if (type === 'Q') seen.push(body.toString('utf8', 0, body.indexOf(0)));
        else if (type === 'P') {
          const nameEnd = body.indexOf(0);
          lastParse = body.toString('utf8', nameEnd + 1, body.indexOf(0, nameEnd + 1));
        } else if (type === 'E') seen.push(lastParse);
        pending = pending.subarray(1 + len);
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as AddressInfo).port,
    take() {
      const out = seen;
      seen = [];
      return out;
    },
    close: () =>
      new Promise((r) => {
        server.close(() => r());
        // the service's pool may hold connections open: they end with the service
      }),
  };
}
