import { randomUUID } from 'node:crypto';
import type { Request, Response } from 'express';
import { type DomainError, toDomainError, ValidationError, type Violation } from '@bo/domain';

/** RFC 9457 problem details, as the contract names them. */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  violations?: { propertyPath: string; message: string; code: string }[];
}

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

export function problem(status: number, detail: string): Problem {
  return { type: `/errors/${status}`, title: TITLES[status] ?? 'Error', status, detail };
}

export function validationProblem(status: number, all: Violation[]): Problem {
  // one entry per offending property (contract): the first failure of a property names it
  const seen = new Set<string>();
  const violations = all.filter((v) => !seen.has(v.path) && seen.add(v.path));
  return {
    // each validation failure gets its own id, as the contract's /validation_errors/<uuid>
    type: `/validation_errors/${randomUUID()}`,
    title: status === 422 ? 'Validation Failed' : 'Bad Request',
    status,
    detail: violations.map((v) => (v.path ? `${v.path}: ${v.message}` : v.message)).join('\n'),
    violations: violations.map((v) => ({ propertyPath: v.path, message: v.message, code: v.code })),
  };
}

export function sendProblem(req: Request, res: Response, p: Problem): void {
  // application/json when the client asks for it and not for problem+json; problem+json otherwise
  const accept = req.headers.accept ?? '';
  const type =
    accept.includes('application/json') && !accept.includes('application/problem+json')
      ? 'application/json'
      : 'application/problem+json';
  res.status(p.status).type(type).send(JSON.stringify(p));
}

/** Malformed input (wrong type, unknown property) is 400; the rest of validation is 422. */
const MALFORMED_CODES = new Set(['invalid_type', 'unknown_property', 'invalid_union']);

function statusOfValidation(violations: Violation[]): number {
  return violations.some((v) => MALFORMED_CODES.has(v.code)) ? 400 : 422;
}

const STATUS: Record<DomainError['kind'], number> = {
  not_found: 404,
  forbidden: 403,
  unauthenticated: 401,
  validation: 422,
  bad_request: 400,
  business_rule: 422,
  conflict: 409,
  rate_limited: 429,
  unavailable: 503,
  gone: 410,
  precondition_failed: 412,
};

export interface ErrorLogger {
  error(obj: object, msg: string): void;
}

export function renderV3Error(err: unknown, req: Request, res: Response, log: ErrorLogger) {
  const parse = (err as { type?: unknown } | null)?.type;
  if (parse === 'entity.parse.failed') return sendProblem(req, res, problem(400, 'The body is not valid JSON.'));
  if (parse === 'entity.too.deep')
    return sendProblem(
      req,
      res,
      problem(400, `The body nests arrays and objects deeper than ${(err as { maxDepth?: number }).maxDepth} levels.`),
    );
  if (parse === 'entity.too.large') return sendProblem(req, res, problem(413, 'The body is larger than the 1 MB limit.'));
  const domain = toDomainError(err);
  const clientStatus = (err as { status?: unknown } | null)?.status;
  if (!domain && typeof clientStatus === 'number' && clientStatus >= 400 && clientStatus < 500) {
    return sendProblem(req, res, problem(clientStatus, 'The request could not be read: check the URL encoding.'));
  }
  if (!domain) {
    log.error({ err, requestId: req.headers['x-request-id'], path: req.path }, 'unhandled error');
    return sendProblem(req, res, problem(500, 'An internal error occurred; the request id is in the X-Request-Id header.'));
  }
  if (domain instanceof ValidationError) {
    return sendProblem(req, res, validationProblem(statusOfValidation(domain.violations), domain.violations));
  }
  // a rate limit, or a write paused while its environment moves between clusters (503)
  const retryAfter: unknown = (domain as { retryAfterSeconds?: unknown }).retryAfterSeconds;
  if ((domain.kind === 'rate_limited' || domain.kind === 'unavailable') && typeof retryAfter === 'number') {
    res.setHeader('Retry-After', String(retryAfter));
  }
  const detail = domain.kind === 'forbidden' ? 'access denied' : domain.message;
  sendProblem(req, res, problem(STATUS[domain.kind], detail));
}
