import type { Express, Response } from 'express';

/**
 * `res.json` for every door (v2, v3, the health check, /trpc's refusals; tRPC writes its answers
 * itself). express's own turns any body over 1,000 characters into a Buffer to count its bytes
 * before writing it: a copy of every list page (about 0.4 ms of a page of 100 organizations in the
 * profile). node:http counts a string given whole to `end()` itself (Buffer.byteLength, no copy)
 * and the socket encodes it as it writes. Same answer as express's: `application/json;
 * charset=utf-8` unless a type was set (then its charset is added), no body for HEAD, 204 and 304.
 */
function json(this: Response, body: unknown): Response {
  const text = JSON.stringify(body) as string | undefined;
  const type = this.get('Content-Type');
  if (!type) this.setHeader('Content-Type', 'application/json; charset=utf-8');
  else if (!/;\s*charset=/i.test(type)) this.setHeader('Content-Type', `${type}; charset=utf-8`);
  if (text === undefined || this.req.method === 'HEAD' || this.statusCode === 204 || this.statusCode === 304) {
    if (text !== undefined && this.req.method === 'HEAD') this.setHeader('Content-Length', Buffer.byteLength(text));
    this.end();
    return this;
  }
  this.end(text, 'utf8');
  return this;
}

/** Installs it on an app: every response of the app (and of the routers mounted on it) uses it. */
export function answerJsonWithoutCopy(app: Express): void {
  app.response.json = json as Express['response']['json'];
}
