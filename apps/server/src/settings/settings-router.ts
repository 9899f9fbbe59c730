import { randomBytes, timingSafeEqual } from 'node:crypto';
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import { createCaller, environmentFromHost, toDomainError, ValidationError } from '@bo/domain';
import type { WebSession } from '@bo/domain/auth/web-session';
import { SESSION_HOURS } from '@bo/domain/auth/web-session';
import { clearCookie, isSecureRequest, LOGIN_CSRF_COOKIE, readCookie, SESSION_COOKIE, setCookie } from '@bo/http';
import type { HttpMountContext } from '@bo/runtime';
import { esc, linkForm, loginForm, message, page, tokensPage } from './html.js';

/** Forms are small: a few fields. */
const FORM_LIMIT = '16kb';

class PageError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function same(a: string | null | undefined, b: string | null | undefined): boolean {
  if (!a || !b) return false;
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function field(req: Request, name: string): string {
  const v = (req.body as Record<string, unknown> | undefined)?.[name];
  return typeof v === 'string' ? v : '';
}

/**
 * The API section of the environment's settings, at /settings/api: server-
 * rendered pages that work without JavaScript, behind the doors' own guards
 * (TLS only, maintenance and the failed-authentication throttle before anything,
 * the per-user rate limit, a body limit, errors without internals).
 */
export function createSettingsRouter(ctx: HttpMountContext): Router {
  const r = express.Router();

  r.use((req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader(
      'Content-Security-Policy',
      "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    );
    res.setHeader('X-Frame-Options', 'DENY');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    // the one-time link's token is in the address: never sent on as a referrer
    res.setHeader('Referrer-Policy', 'no-referrer');
    if (!isSecureRequest(req, ctx.trustProxy)) {
      res.status(403).type('text/plain').send('TLS is required: open these pages over https.');
      return;
    }
    next();
  });

  r.use(async (req, res, next) => {
    try {
      const environment = environmentFromHost(req.headers.host);
      if (!environment) throw new PageError(404, 'Not found.');
      const refusal = await ctx.guard(req);
      if (refusal) {
        if (refusal.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(refusal.retryAfterSeconds));
        throw new PageError(refusal.status, refusal.message);
      }
      res.locals.environment = environment;
      const anonymous = createCaller({ ...ctx.context(req), principal: null });
      const session = await anonymous.auth.session.resolve({ environment, secret: readCookie(req, SESSION_COOKIE) });
      res.locals.session = session;
      if (session && ctx.rateLimit) {
        const decision = await ctx.rateLimit(`session:${session.sessionId}`);
        if (!decision.allowed) {
          res.setHeader('Retry-After', String(decision.retryAfterSeconds));
          throw new PageError(429, `Too many requests; retry in ${decision.retryAfterSeconds} s.`);
        }
      }
      next();
    } catch (err) {
      next(err);
    }
  });

  r.use(express.urlencoded({ extended: false, limit: FORM_LIMIT, parameterLimit: 20 }));

  const env = (res: Response) => res.locals.environment as string;
  const sessionOf = (res: Response) => (res.locals.session as WebSession | null) ?? null;
  const caller = (req: Request, s: WebSession) => createCaller({ ...ctx.context(req), principal: s.principal });

  const renderLogin = (res: Response, status: number, opts: { email?: string; error?: string } = {}) => {
    const csrf = randomBytes(24).toString('base64url');
    setCookie(res, LOGIN_CSRF_COOKIE, csrf, 3600);
    res
      .status(status)
      .type('html')
      .send(page({ title: 'Sign in', environment: env(res), body: loginForm({ csrf, ...opts }) }));
  };

  const renderTokens = async (
    req: Request,
    res: Response,
    s: WebSession,
    extra: {
      created?: { key: string; secret: string; userEmail: string };
      notice?: string;
      error?: string;
      status?: number;
    } = {},
  ) => {
    const c = caller(req, s);
    const [tokens, users] = await Promise.all([c.auth.tokens.list(), c.auth.tokens.users()]);
    const canWrite = s.principal.rights.settings === 'write';
    res
      .status(extra.status ?? 200)
      .type('html')
      .send(
        page({
          title: 'API tokens',
          environment: env(res),
          signedInAs: s.email,
          csrf: s.csrfToken,
          body: tokensPage({ csrf: s.csrfToken, tokens, users, canWrite, ...extra }),
        }),
      );
  };

  /** a signed-in user's form: its CSRF token must be the session's, or nothing happens */
  const requireForm = (req: Request, res: Response): WebSession => {
    const s = sessionOf(res);
    if (!s) throw new PageError(401, 'Your session has ended. Sign in again.');
    if (!same(field(req, 'csrf'), s.csrfToken))
      throw new PageError(403, 'The form could not be verified (CSRF). Reload the page and try again.');
    return s;
  };

  r.get(['/api', '/api/'], async (req, res) => {
    const s = sessionOf(res);
    if (!s) return renderLogin(res, 200);
    await renderTokens(req, res, s);
  });

  r.post('/api/login', async (req, res) => {
    if (!same(field(req, 'csrf'), readCookie(req, LOGIN_CSRF_COOKIE))) {
      throw new PageError(403, 'The form could not be verified (CSRF). Reload the page and try again.');
    }
    const email = field(req, 'email');
    const anonymous = createCaller({ ...ctx.context(req), principal: null });
    try {
      const opened = await anonymous.auth.session.login({ environment: env(res), email, password: field(req, 'password') });
      clearCookie(res, LOGIN_CSRF_COOKIE);
      setCookie(res, SESSION_COOKIE, opened.secret, SESSION_HOURS * 3600);
      res.redirect(303, '/settings/api');
    } catch (err) {
      if (toDomainError(err)?.kind !== 'unauthenticated') throw err;
      await ctx.authFailed(req);
      renderLogin(res, 401, { email, error: 'Wrong e-mail or password.' });
    }
  });

  r.get('/api/link', (req, res) => {
    const token = typeof req.query.token === 'string' ? req.query.token : '';
    if (!token) throw new PageError(400, 'This sign-in link is incomplete.');
    res.type('html').send(page({ title: 'Sign in', environment: env(res), body: linkForm(token) }));
  });

  r.post('/api/link', async (req, res) => {
    const anonymous = createCaller({ ...ctx.context(req), principal: null });
    try {
      const opened = await anonymous.auth.session.consumeLink({ environment: env(res), secret: field(req, 'token') });
      setCookie(res, SESSION_COOKIE, opened.secret, SESSION_HOURS * 3600);
      res.redirect(303, '/settings/api');
    } catch (err) {
      if (toDomainError(err)?.kind !== 'unauthenticated') throw err;
      await ctx.authFailed(req);
      throw new PageError(401, 'This sign-in link is unknown, used or expired. Ask for a new one.');
    }
  });

  r.post('/api/logout', async (req, res) => {
    const s = requireForm(req, res);
    await caller(req, s).auth.session.logout();
    clearCookie(res, SESSION_COOKIE);
    res.redirect(303, '/settings/api');
  });

  r.post('/api/tokens', async (req, res) => {
    const s = requireForm(req, res);
    try {
      const created = await caller(req, s).auth.tokens.create({ userId: field(req, 'user_id'), label: field(req, 'label') });
      await renderTokens(req, res, s, { created });
    } catch (err) {
      const domain = toDomainError(err);
      if (!(domain instanceof ValidationError)) throw err;
      await renderTokens(req, res, s, { status: 400, error: domain.violations.map((v) => v.message).join('; ') });
    }
  });

  r.post('/api/tokens/:id/delete', async (req, res) => {
    const s = requireForm(req, res);
    await caller(req, s).auth.tokens.delete({ id: req.params.id as string });
    res.redirect(303, '/settings/api');
  });

  r.use((_req, _res, next) => next(new PageError(404, 'Not found.')));

  // every failure as a plain page: never a stack, a path or a database message
  r.use((err: unknown, req: Request, res: Response, _next: NextFunction) => {
    let status = 500;
    let text = 'Something went wrong. The request id is in the X-Request-Id header.';
    if (err instanceof PageError) {
      status = err.status;
      text = err.message;
    } else {
      const domain = toDomainError(err);
      const type = (err as { type?: unknown } | null)?.type;
      if (domain) {
        status =
          { forbidden: 403, not_found: 404, unauthenticated: 401, rate_limited: 429, unavailable: 503 }[domain.kind as string] ??
          400;
        text =
          domain.kind === 'forbidden'
            ? 'You do not have the settings right needed here.'
            : domain instanceof ValidationError
              ? domain.violations.map((v) => v.message).join('; ')
              : domain.message;
      } else if (type === 'entity.too.large') {
        status = 413;
        text = 'The form is larger than allowed.';
      } else if (typeof type === 'string' || (err as { status?: number } | null)?.status === 400) {
        status = 400;
        text = 'The form could not be read.';
      } else {
        ctx.log.error({ err, requestId: req.headers['x-request-id'], path: req.path }, 'unhandled error in settings');
      }
    }
    const environment = (res.locals.environment as string | undefined) ?? '';
    const s = sessionOf(res);
    res
      .status(status)
      .type('html')
      .send(
        page({
          title: `Error ${status}`,
          environment,
          signedInAs: s?.email,
          csrf: s?.csrfToken,
          body: `<h1>Error ${status}</h1>${message('error', esc(text))}<p><a href="/settings/api">Back to the API settings</a></p>`,
        }),
      );
  });
  return r;
}
