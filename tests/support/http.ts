import { request as httpsRequest } from 'node:https';
import { request as httpRequest } from 'node:http';

export interface HttpResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** the parsed JSON body; undefined when the body is not JSON */
  body: unknown;
}

export interface RequestOptions {
  host: string;
  headers?: Record<string, string>;
  /** an object is sent as JSON with Content-Type application/json; a string is sent as is */
  body?: unknown;
  tls?: boolean;
}

/**
 * A real HTTP(S) request over a socket to 127.0.0.1 with a chosen Host header
 * (the environment is the host's first label), accepting the self-signed certificate.
 */
export function send(port: number, method: string, path: string, opts: RequestOptions): Promise<HttpResponse> {
  const headers: Record<string, string> = { host: opts.host, ...opts.headers };
  let payload: Buffer | undefined;
  if (opts.body !== undefined) {
    if (typeof opts.body === 'string' || Buffer.isBuffer(opts.body)) payload = Buffer.from(opts.body);
    else {
      payload = Buffer.from(JSON.stringify(opts.body));
      if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
    }
    headers['content-length'] = String(payload.length);
  }
  const doRequest = opts.tls === false ? httpRequest : httpsRequest;
  return new Promise((resolve, reject) => {
    const req = doRequest({ host: '127.0.0.1', port, method, path, headers, rejectUnauthorized: false, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown;
        try {
          body = text ? JSON.parse(text) : undefined;
        } catch {
          body = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body });
      });
    });
    req.on('error', reject);
    if (payload) req.write(payload);
    req.end();
  });
}
