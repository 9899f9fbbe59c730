import type { Response } from 'express';

/** The v2 envelope: `{data, errors, debug}`, plus `metadata` when asked for. */
export function sendData(res: Response, data: unknown, metadata?: Record<string, number>, status = 200): void {
  const body: Record<string, unknown> = { data };
  if (metadata) body.metadata = metadata;
  body.errors = null;
  body.debug = null;
  res.status(status).json(body);
}

export function sendErrors(res: Response, status: number, errors: string[]): void {
  res.status(status).json({ data: null, errors, debug: null });
}

/** API-level refusals (no TLS) are text/plain, as the contract allows. */
export function sendPlain(res: Response, status: number, text: string): void {
  res.status(status).type('text/plain').send(text);
}
