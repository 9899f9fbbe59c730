import type { Request, Response } from 'express';
import { type DomainError, toDomainError, ValidationError } from '@bo/domain';
import { sendErrors } from './envelope.js';

const STATUS: Record<DomainError['kind'], number> = {
  not_found: 404,
  forbidden: 403,
  unauthenticated: 401,
  validation: 400,
  bad_request: 400,
  business_rule: 400,
  conflict: 409,
  rate_limited: 429,
  unavailable: 503,
  gone: 410,
  precondition_failed: 412,
};

export interface ErrorLogger {
  error(obj: object, msg: string): void;
}

/** Renders any failure as the v2 envelope; an unexpected one is logged and answered 500 without details. */
export function renderV2Error(err: unknown, req: Request, res: Response, log: ErrorLogger): void {
  const bodyError = bodyParserError(err);
  if (bodyError) {
    sendErrors(res, bodyError.status, [bodyError.message]);
    return;
  }
  const domain = toDomainError(err);
  const clientStatus = domain ? null : httpClientError(err);
  if (clientStatus) {
    sendErrors(res, clientStatus, ['the request could not be read: check the URL encoding']);
    return;
  }
  if (!domain) {
    log.error({ err, requestId: req.headers['x-request-id'], path: req.path }, 'unhandled error');
    sendErrors(res, 500, ['internal error; the request id is in the X-Request-Id header']);
    return;
  }
  // a rate limit, or a write paused while its environment moves between clusters (503)
  const retryAfter: unknown = (domain as { retryAfterSeconds?: unknown }).retryAfterSeconds;
  if ((domain.kind === 'rate_limited' || domain.kind === 'unavailable') && typeof retryAfter === 'number') {
    res.setHeader('Retry-After', String(retryAfter));
  }
  const messages =
    domain instanceof ValidationError
      ? domain.violations.map((v) => (v.path ? `${v.path}: ${v.message}` : v.message))
      : [domain.message];
  sendErrors(res, STATUS[domain.kind], messages);
}

/** Errors of express.json(): malformed JSON, a body over the limit, a wrong charset. */
export function bodyParserError(err: unknown): { status: number; message: string } | null {
  if (!err || typeof err !== 'object' || !('type' in err)) return null;
  const type = (err as { type?: unknown }).type;
  if (typeof type !== 'string') return null;
  if (type === 'entity.parse.failed') return { status: 400, message: 'the body is not valid JSON' };
  if (type === 'entity.too.deep') return { status: 400, message: (err as unknown as Error).message };
  if (type === 'entity.too.large') return { status: 413, message: 'the body is larger than the 1 MB limit' };
  if (type === 'charset.unsupported' || type === 'encoding.unsupported') {
    return { status: 415, message: 'the body must be UTF-8 JSON' };
  }
  if (type === 'request.aborted' || type === 'request.size.invalid') return { status: 400, message: 'the body was cut short' };
  return null;
}

/** Express's own client errors (a path that is not valid percent-encoding, …) keep their 4xx status. */
export function httpClientError(err: unknown): number | null {
  const status = (err as { status?: unknown } | null)?.status;
  return typeof status === 'number' && status >= 400 && status < 500 ? status : null;
}
