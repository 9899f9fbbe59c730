import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { currentRequestScope } from '@bo/db';
import {
  type Clock,
  createCaller,
  type DeclaredRight,
  type DomainContext,
  type DomainError,
  describeMaintenance,
  environmentFromHost,
  ForbiddenError,
  type MaintenanceReader,
  NotFoundError,
  RateLimitedError,
  requireDeclaredRight,
  toDomainError,
  UnavailableError,
  type UserPrincipal,
} from '@bo/domain';
import { authenticate, findEnvironmentId, knownEnvironmentId } from '@bo/domain/auth/authenticate';
import type { WebSession } from '@bo/domain/auth/web-session';
import type { RateLimit } from './rate-limit.js';
import { recordRateLimitRefusal } from './metrics.js';
import { type RequestShare, ShareRefused } from './request-share.js';

/**
 * One guard for every door (v2, v3, /trpc, the settings pages, the browser downloads). It runs,
 * in this order: transport security, environment, credentials (the failed-authentication throttle
 * of the client address first, then the token or the session), the rate limit of the token or
 * session, maintenance, and then the right the request's procedure declares, before any body is
 * read; last, the environment's share of the process (REQUESTS_PER_ENVIRONMENT requests worked on
 * at once, the others waiting in its own queue). It answers in domain errors; a door only renders
 * them in its own shape.
 */

/** The request did not come over TLS, directly or by the word of a trusted TLS-terminating proxy. */
export class TransportSecurityError extends ForbiddenError {
  constructor() {
    super('TLS is required: use https.');
  }
}

/** The host names no environment, or one that does not exist: nothing more is said. */
export class UnknownEnvironmentError extends NotFoundError {
  constructor() {
    super('environment');
    this.message = 'not found';
  }
}

/** Over a budget: the token's or session's requests per minute, or failed authentications from the address. */
export class TooManyRequestsError extends RateLimitedError {
  constructor(retryAfterSeconds: number, message: string) {
    super(retryAfterSeconds);
    this.message = message;
  }
}

/** The environment's share of the process is taken and its queue is full, or a request waited in it too long. */
export class EnvironmentBusyError extends UnavailableError {
  readonly retryAfterSeconds = 1;
  constructor(reason: string) {
    super(`too many requests of this environment are running (${reason}); retry shortly`);
  }
}

/** The environment (or the whole service) is in scheduled maintenance. */
export class MaintenanceError extends UnavailableError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number | undefined,
  ) {
    super(message);
  }
}

/**
 * How a door's clients prove who they are: an API token (`Authorization: Bearer <key>:<secret>`,
 * or the `Authentication-Key` and `Authentication-Secret` headers), or a browser session (the door
 * reads its cookie), where a visitor without one may still sign in.
 */
export type DoorCredentials = 'token' | { session: (req: Request) => string | null };

/** What the guard lets through. */
export interface Admission {
  environment: string;
  /** null: a session door's visitor who has not signed in */
  principal: UserPrincipal | null;
  /** the browser session, on a session door */
  session: WebSession | null;
  /** the request's domain context, with the principal */
  context: DomainContext;
  /** the budget left after this request, and seconds until it is whole again; null when the rate limit is off */
  budget: { limit: number; remaining: number; resetSeconds: number } | null;
}

export interface DoorOptions {
  credentials: DoorCredentials;
  /**
   * the right the request's procedure declares, when the door can tell the procedure from the
   * request line: checked before the body is read (undefined: the procedure checks it itself)
   */
  right?: (req: Request) => DeclaredRight | undefined;
  /** renders a refusal in the door's shape (Retry-After and the rate-limit headers are already set) */
  render: (err: DomainError, req: Request, res: Response) => void;
  /**
   * requests the environment's share of the process does not count: a body streamed at the
   * client's pace (a raw-body upload), whose time is the network's, not the process's
   */
  outsideShare?: (req: Request) => boolean;
}

export interface Guard {
  /** transport security only: for what a door serves to anyone (its API reference) */
  transport(req: Request): void;
  /** every check but the right; throws a DomainError */
  admit(req: Request, credentials: DoorCredentials): Promise<Admission>;
  /** the procedure's declared right; throws Unauthenticated (no principal) or Forbidden */
  right(admission: Admission, right: DeclaredRight | undefined): void;
  /** counts a failed sign-in of the request's address (the settings' login form), for the throttle */
  signInFailed(req: Request): Promise<void>;
  /** a door's guard as middleware: the admission in res.locals.admission, or the refusal rendered */
  door(opts: DoorOptions): RequestHandler;
  /** a door's transport check as middleware, for what it serves before authentication */
  transportOnly(render: DoorOptions['render']): RequestHandler;
}

export interface GuardOptions {
  /** the domain context of a request, without a principal */
  context(req: Request): DomainContext;
  /** honour X-Forwarded-Proto from a trusted proxy */
  trustProxy: boolean;
  rateLimit: RateLimit | null;
  maintenance: MaintenanceReader | null;
  clock: Clock;
  log: { error(obj: object, msg: string): void };
  /** the fair share of the process between environments (REQUESTS_PER_ENVIRONMENT); null: off */
  share?: RequestShare | null;
}

/** Whether the request came over TLS (directly, or through a trusted proxy that says so). */
function isSecure(req: Request, trustProxy: boolean): boolean {
  if (trustProxy) {
    const forwarded = req.headers['x-forwarded-proto'];
    if (typeof forwarded === 'string') return forwarded.split(',')[0]?.trim() === 'https';
  }
  return Boolean((req.socket as { encrypted?: boolean }).encrypted);
}

function header(req: Request, name: string): string | null {
  const v = req.headers[name];
  return typeof v === 'string' && v.length > 0 ? v : null;
}

/** An API token: `Authorization: Bearer <key>:<secret>` (v3), or the two headers of v2. */
function tokenOf(req: Request): { key: string | null; secret: string | null } {
  const bearer = /^Bearer\s+([^:\s]+):(\S+)$/i.exec((req.headers.authorization ?? '').trim());
  if (bearer) return { key: bearer[1] ?? null, secret: bearer[2] ?? null };
  return { key: header(req, 'authentication-key'), secret: header(req, 'authentication-secret') };
}

/** The request's admission, as the guard middleware left it. */
export function admissionOf(res: Response): Admission {
  return res.locals.admission as Admission;
}

/**
 * The request's work is done but its answer goes on at the client's pace (a file streamed to
 * it): its place in the environment's share goes to the next request. Once; nothing when the
 * request holds none.
 */
export function leaveShare(res: Response): void {
  (res.locals.leaveShare as (() => void) | undefined)?.();
}

export function createGuard(opts: GuardOptions): Guard {
  const limiter = opts.rateLimit;
  const address = (req: Request) => req.ip ?? req.socket.remoteAddress ?? 'unknown';
  const failed = async (req: Request) => {
    await limiter?.authFailed(address(req)).catch((err: unknown) => opts.log.error({ err }, 'failed-auth counter'));
  };

  const transport = (req: Request) => {
    if (!isSecure(req, opts.trustProxy)) throw new TransportSecurityError();
  };

  async function admit(req: Request, credentials: DoorCredentials): Promise<Admission> {
    // 1. transport security
    transport(req);
    // 2. environment: the host's first label, an environment that exists
    const environment = environmentFromHost(req.headers.host);
    const base = opts.context(req);
    // what is known in memory is not awaited (each await cost a read by id a few per cent of its CPU)
    if (!environment || !(knownEnvironmentId(base, environment) ?? (await findEnvironmentId(base, environment)))) {
      throw new UnknownEnvironmentError();
    }
    // 3. credentials: an address that failed too often is refused before any secret is compared
    const blocked = limiter?.authAllowed(() => address(req));
    if (blocked && !blocked.allowed) {
      recordRateLimitRefusal('auth_failures');
      throw new TooManyRequestsError(
        blocked.retryAfterSeconds,
        `too many failed authentications from this address; retry in ${blocked.retryAfterSeconds} s`,
      );
    }
    const anonymous: DomainContext = { ...base, principal: null };
    let principal: UserPrincipal | null;
    let session: WebSession | null = null;
    if (credentials === 'token') {
      try {
        // the use case itself, as findEnvironmentId above: a second procedure call per request (its
        // proxy, middlewares and the parse of the headers' strings and of our own answer) cost a read
        // by id about a tenth of its CPU and a fifth of its allocations
        principal = await authenticate(anonymous, { environment, ...tokenOf(req) });
      } catch (err) {
        const domain = toDomainError(err);
        if (domain?.kind === 'unauthenticated') await failed(req);
        throw domain ?? err;
      }
    } else {
      session = await createCaller(anonymous).auth.session.resolve({ environment, secret: credentials.session(req) });
      principal = session?.principal ?? null;
    }
    // 4. rate limit: one budget per token across every door, one per browser session
    let budget: Admission['budget'] = null;
    const key = principal?.tokenId ? `token:${principal.tokenId}` : session ? `session:${session.sessionId}` : null;
    if (key && limiter) {
      const counted = limiter.consume(key);
      const decision = counted instanceof Promise ? await counted : counted;
      if (decision) {
        budget = { limit: decision.limit, remaining: decision.remaining, resetSeconds: decision.resetSeconds };
        if (!decision.allowed) {
          recordRateLimitRefusal('requests');
          throw Object.assign(
            new TooManyRequestsError(
              decision.retryAfterSeconds,
              `rate limit of ${decision.limit} requests per minute exceeded; retry in ${decision.retryAfterSeconds} s`,
            ),
            { budget },
          );
        }
      }
    }
    // 5. maintenance
    const reader = opts.maintenance;
    const known = reader ? reader.current(environment) : null;
    const window = known === undefined && reader ? await reader.forEnvironment(environment) : known;
    if (window) {
      const { message, retryAfterSeconds } = describeMaintenance(window, opts.clock.now());
      throw Object.assign(new MaintenanceError(message, retryAfterSeconds), { budget });
    }
    return { environment, principal, session, context: { ...base, principal }, budget };
  }

  const right = (admission: Admission, declared: DeclaredRight | undefined) => {
    if (declared) requireDeclaredRight(admission.principal, declared);
  };

  const setBudget = (res: Response, budget: Admission['budget'] | undefined) => {
    if (!budget) return;
    res.setHeader('X-RateLimit-Limit', String(budget.limit));
    res.setHeader('X-RateLimit-Remaining', String(budget.remaining));
    // the IETF fields (draft-ietf-httpapi-ratelimit-headers): the policy (quota q per window w
    // seconds) and what is left of it (r) with the seconds until it is whole again (t)
    res.setHeader('RateLimit-Policy', `"default";q=${budget.limit};w=60`);
    res.setHeader('RateLimit', `"default";r=${budget.remaining};t=${budget.resetSeconds}`);
  };

  const refuse = (err: unknown, req: Request, res: Response, next: NextFunction, render: DoorOptions['render']) => {
    const domain = toDomainError(err);
    if (!domain) return next(err);
    setBudget(res, (err as { budget?: Admission['budget'] }).budget);
    const retry = (domain as { retryAfterSeconds?: unknown }).retryAfterSeconds;
    if (typeof retry === 'number') res.setHeader('Retry-After', String(retry));
    render(domain, req, res);
  };

  /**
   * 7. the environment's share of the process: the request is worked on at once while fewer than
   * its environment's share are (REQUESTS_PER_ENVIRONMENT while other environments have requests in
   * the process, REQUESTS_PER_ENVIRONMENT_ALONE otherwise), otherwise it waits in its environment's queue.
   * Its place is given back when its answer is ended (`prefinish`, sent at once by end(): not when
   * a slow client has read it all), when its client goes away, or by leaveShare.
   */
  const share = opts.share ?? null;
  const enterShare = (
    share: RequestShare,
    environment: string,
    req: Request,
    res: Response,
    next: NextFunction,
    door: DoorOptions,
  ) => {
    // 0: waiting, 1: holds a place, 2: done
    let state = 0;
    let drop: (() => void) | undefined;
    const leave = () => {
      if (state !== 1) return;
      state = 2;
      share.leave(environment);
    };
    res.locals.leaveShare = leave;
    res.locals.yieldsTurns = () => share.yieldsTurns(environment);
    res.once('prefinish', leave);
    const gone = () => {
      if (state === 0) {
        state = 2;
        drop?.();
      } else leave();
    };
    // the request scope's signal tells when the client went away before the answer finished (the
    // one close listener per request: a listener of its own cost its add, wrapper and removal);
    // an answer that finishes has left at its prefinish
    const signal = currentRequestScope()?.signal;
    if (signal) signal.addEventListener('abort', gone);
    else res.once('close', gone);
    if (share.tryEnter(environment)) {
      state = 1;
      next();
      return;
    }
    share
      .wait(environment, (d) => {
        drop = d;
      })
      .then(
        () => {
          // its client went away after its place was given and before this ran: the place goes on
          if (state === 2) {
            share.leave(environment);
            return;
          }
          state = 1;
          // on a shared process, after what the event loop has ready now (another environment's
          // answer from the database, say): a waiting environment's next request does not start in
          // the same turn as its last one ended (measured: another environment's p99 ratio 3.9 and
          // 3.8 without, 2.8 and 2.2 with). Alone, there is nobody to let in first.
          if (share.shared()) setImmediate(next);
          else next();
        },
        (err: unknown) => {
          state = 2;
          refuse(err instanceof ShareRefused ? new EnvironmentBusyError(err.reason) : err, req, res, next, door.render);
        },
      );
  };

  return {
    transport,
    admit,
    right,
    signInFailed: failed,
    door(door) {
      return async (req, res, next) => {
        let admission: Admission;
        try {
          admission = await admit(req, door.credentials);
          setBudget(res, admission.budget);
          res.locals.admission = admission;
          // 6. the procedure's declared right, before the body is read
          right(admission, door.right?.(req));
        } catch (err) {
          refuse(err, req, res, next, door.render);
          return;
        }
        if (share === null || door.outsideShare?.(req)) next();
        else enterShare(share, admission.environment, req, res, next, door);
      };
    },
    transportOnly(render) {
      return (req, res, next) => {
        try {
          transport(req);
          next();
        } catch (err) {
          refuse(err, req, res, next, render);
        }
      };
    },
  };
}
