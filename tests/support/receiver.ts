import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: IncomingHttpHeaders;
  raw: string;
  body: {
    id: string;
    type: string;
    occurredAt: string;
    environment: string;
    payloadVersion?: number;
    data: Record<string, unknown>;
  };
  at: number;
}

/** What the receiver does with the n-th request (from 1): a status, or a delay before it. */
export type Reply = (n: number, r: Received) => { status: number; delayMs?: number };

/** A real webhook receiver on 127.0.0.1 that records every request. */
export class Receiver {
  readonly received: Received[] = [];
  private server: Server | null = null;
  port = 0;

  constructor(public reply: Reply = () => ({ status: 200 })) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}/hook`;
  }

  async start(port = 0): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const r: Received = { headers: req.headers, raw, body: JSON.parse(raw), at: Date.now() };
        this.received.push(r);
        const { status, delayMs } = this.reply(this.received.length, r);
        const answer = () => {
          if (!res.destroyed) res.writeHead(status, { 'content-type': 'text/plain' }).end('ok');
        };
        if (delayMs) setTimeout(answer, delayMs);
        else answer();
      });
    });
    this.server.keepAliveTimeout = 1;
    await new Promise<void>((resolve) => this.server?.listen(port, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  async stop(): Promise<void> {
    const s = this.server;
    this.server = null;
    if (!s) return;
    await new Promise<void>((resolve) => {
      s.close(() => resolve());
      s.closeAllConnections();
    });
  }

  ofType(type: string): Received[] {
    return this.received.filter((r) => r.body.type === type);
  }
}

/** Polls until `check` returns a truthy value, or fails after `timeoutMs`. */
export async function waitFor<T>(check: () => T | Promise<T>, timeoutMs = 10_000, what = 'condition'): Promise<NonNullable<T>> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v) return v as NonNullable<T>;
    if (Date.now() > until) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
