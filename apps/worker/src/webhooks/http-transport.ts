import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import type { WebhookRequest, WebhookTransport } from '@bo/domain/webhooks/webhook-transport';

/** kept-alive pools at the most; with more targets the oldest pool is dropped */
const MAX_POOLS = 256;

/**
 * Webhook POSTs over node:http(s) with keep-alive connections to receivers, one
 * agent per origin and checked address: a new TCP (and TLS) connection per event
 * costs more than the event itself, and keying by the address means a socket is
 * only reused for the address that was checked when it was opened.
 */
export class HttpWebhookTransport implements WebhookTransport {
  private readonly agents = new Map<string, HttpAgent>();

  async post(req: WebhookRequest): Promise<number> {
    const first = await this.postOnce(req);
    if ('status' in first) return first.status;
    const again = await this.postOnce(req);
    if ('status' in again) return again.status;
    throw new Error('the connection was closed before an answer');
  }

  close(): void {
    for (const agent of this.agents.values()) agent.destroy();
    this.agents.clear();
  }

  private agentFor(url: URL, address: string): HttpAgent {
    const key = `${url.protocol}//${url.host}|${address}`;
    let agent = this.agents.get(key);
    if (!agent) {
      agent = url.protocol === 'https:' ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true });
      if (this.agents.size >= MAX_POOLS) {
        // many targets: drop the least recently created pool rather than grow without bound
        const [oldestKey, oldest] = this.agents.entries().next().value as [string, HttpAgent];
        oldest.destroy();
        this.agents.delete(oldestKey);
      }
      this.agents.set(key, agent);
    }
    return agent;
  }

  private postOnce({ url, address, family, headers, body, timeoutMs }: WebhookRequest) {
    // connect to the checked address, whatever the name resolves to now
    const pinned: LookupFunction = (_host, opts, cb) => {
      if ((opts as { all?: boolean }).all)
        (cb as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address, family }]);
      else cb(null, address, family);
    };
    return new Promise<{ status: number } | { reusedSocketLost: true }>((resolve, reject) => {
      const doRequest = url.protocol === 'https:' ? httpsRequest : httpRequest;
      let answered = false;
      const req = doRequest(
        url,
        {
          method: 'POST',
          headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
          lookup: pinned,
          agent: this.agentFor(url, address),
        },
        (res) => {
          answered = true;
          // the answer's body is not needed; read it so the socket can be reused
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode ?? 0 }));
          res.on('error', reject);
        },
      );
      const timer = setTimeout(() => req.destroy(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      req.on('close', () => clearTimeout(timer));
      req.on('error', (err: NodeJS.ErrnoException) => {
        // a kept-alive socket the receiver closed while idle: nothing was answered, send again on a new one
        if (!answered && req.reusedSocket && (err.code === 'ECONNRESET' || err.code === 'EPIPE')) {
          resolve({ reusedSocketLost: true });
        } else reject(err);
      });
      req.end(body);
    });
  }
}
