import type { Response } from 'express';

/** The v2 envelope: `{data, errors, debug}`, plus `metadata` when asked for. */
export function sendData(res: Response, data: unknown, metadata?: Record<string, number>, status = 200): void {
  const body: Record<string, unknown> = { data };
  if (metadata) body.metadata = metadata;
  body.errors = null;
  body.debug = null;
  sendJson(res, status, body);
}

/**
 * The body as one string to `end`, as node:http writes it best: Express's `json` turns a body
 * past 1,000 characters into a Buffer first, and Node then writes the head and the body as two
 * buffers (over TLS, coalesced again by copying): the write showed as the largest single cost of
 * a list page.
 */
function sendJson(res: Response, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(text);
}

export function sendErrors(res: Response, status: number, errors: string[]): void {
  res.status(status).json({ data: null, errors, debug: null });
}

/** API-level refusals (no TLS) are text/plain, as the contract allows. */
export function sendPlain(res: Response, status: number, text: string): void {
  res.status(status).type('text/plain').send(text);
}
