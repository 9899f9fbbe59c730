import { randomBytes, timingSafeEqual } from 'node:crypto';
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import { appRouter, createCaller, type DomainError, declaredRightOf, toDomainError, ValidationError } from '@bo/domain';
import type { WebSession } from '@bo/domain/auth/web-session';
import { SESSION_HOURS } from '@bo/domain/auth/web-session';
import { procedureNamedBy } from '@bo/domain/trpc';
import { clearCookie, LOGIN_CSRF_COOKIE, readCookie, SESSION_COOKIE, setCookie } from '@bo/http';
import { type Admission, type HttpMountContext, TransportSecurityError } from '@bo/runtime';
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

/** The procedures behind the forms that change something, whose declared rights are checked before a form is read. */
const FORM_PROCEDURES = {
  logout: procedureNamedBy(appRouter, (c) => c.auth.session.logout),
  createToken: procedureNamedBy(appRouter, (c) => c.auth.tokens.create),
  deleteToken: procedureNamedBy(appRouter, (c) => c.auth.tokens.delete),
};

/**
 * The API section of the environment's settings, at /settings/api: server-
 * rendered pages that work without JavaScript, behind the one guard of every
 * door (with the browser session as credentials: TLS only, the environment,
 * the failed-authentication throttle, the session's rate limit, maintenance,
 * and a form's declared right before the form is read), a body limit, errors
 * without internals.
 */
export function createSettingsRouter(ctx: HttpMountContext): Router {
  const r = express.Router();
  const { guard } = ctx;

  r.use((_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader(
      'Content-Security-Policy',
      "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    );
    res.setHeader('X-Frame-Options', 'DENY');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    // the one-time link's token is in the address: never sent on as a referrer
    res.setHeader('Referrer-Policy', 'no-referrer');
    next();
  });

  const admission = (res: Response) => res.locals.admission as Admission | undefined;
  const env = (res: Response) => admission(res)?.environment ?? '';
  const sessionOf = (res: Response) => admission(res)?.session ?? null;
  /** the signed-in user's caller */
  const caller = (res: Response) => createCaller((admission(res) as Admission).context);

  /** every failure as a plain page: never a stack, a path or a database message */
  const renderPage = (res: Response, status: number, text: string) => {
    const s = sessionOf(res);
    res
      .status(status)
      .type('html')
      .send(
        page({
          title: `Error ${status}`,
          environment: env(res),
          signedInAs: s?.email,
          csrf: s?.csrfToken,
          body: `<h1>Error ${status}</h1>${message('error', esc(text))}<p><a href="/settings/api">Back to the API settings</a></p>`,
        }),
      );
  };
  const renderDomainError = (domain: DomainError, _req: Request, res: Response) => {
    const status =
      {
        forbidden: 403,
        not_found: 404,
        unauthenticated: 401,
        rate_limited: 429,
        unavailable: 503,
        gone: 410,
        precondition_failed: 412,
      }[domain.kind as string] ?? 400;
    const text =
      domain instanceof TransportSecurityError
        ? domain.message
        : domain.kind === 'forbidden'
          ? 'You do not have the settings right needed here.'
          : domain.kind === 'unauthenticated'
            ? 'Your session has ended. Sign in again.'
            : domain instanceof ValidationError
              ? domain.violations.map((v) => v.message).join('; ')
              : domain.message;
    renderPage(res, status, text);
  };

  // the one guard of every door; a visitor without a session may still sign in
  r.use(guard.door({ credentials: { session: (req) => readCookie(req, SESSION_COOKIE) }, render: renderDomainError }));

  /** the right a form's procedure declares, checked before the form is read */
  const needs = (procedure: unknown) => (_req: Request, res: Response, next: NextFunction) => {
    guard.right(admission(res) as Admission, declaredRightOf(procedure));
    next();
  };
  const form = express.urlencoded({ extended: false, limit: FORM_LIMIT, parameterLimit: 20 });

  const renderLogin = (res: Response, status: number, opts: { email?: string; error?: string } = {}) => {
    const csrf = randomBytes(24).toString('base64url');
    setCookie(res, LOGIN_CSRF_COOKIE, csrf, 3600);
    res
      .status(status)
      .type('html')
      .send(page({ title: 'Sign in', environment: env(res), body: loginForm({ csrf, ...opts }) }));
  };

  const renderTokens = async (
    res: Response,
    s: WebSession,
    extra: {
      created?: { key: string; secret: string; userEmail: string };
      notice?: string;
      error?: string;
      status?: number;
    } = {},
  ) => {
    const c = caller(res);
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

  /** a signed-in user's form (the guard has checked the session): its CSRF token must be the session's, or nothing happens */
  const requireForm = (req: Request, res: Response): WebSession => {
    const s = sessionOf(res);
    if (!s) throw new PageError(401, 'Your session has ended. Sign in again.');
    if (!same(field(req, 'csrf'), s.csrfToken))
      throw new PageError(403, 'The form could not be verified (CSRF). Reload the page and try again.');
    return s;
  };

  r.get(['/api', '/api/'], async (_req, res) => {
    const s = sessionOf(res);
    if (!s) return renderLogin(res, 200);
    await renderTokens(res, s);
  });

  r.post('/api/login', form, async (req, res) => {
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
      await guard.signInFailed(req);
      renderLogin(res, 401, { email, error: 'Wrong e-mail or password.' });
    }
  });

  r.get('/api/link', (req, res) => {
    const token = typeof req.query.token === 'string' ? req.query.token : '';
    if (!token) throw new PageError(400, 'This sign-in link is incomplete.');
    res.type('html').send(page({ title: 'Sign in', environment: env(res), body: linkForm(token) }));
  });

  r.post('/api/link', form, async (req, res) => {
    const anonymous = createCaller({ ...ctx.context(req), principal: null });
    try {
      const opened = await anonymous.auth.session.consumeLink({ environment: env(res), secret: field(req, 'token') });
      setCookie(res, SESSION_COOKIE, opened.secret, SESSION_HOURS * 3600);
      res.redirect(303, '/settings/api');
    } catch (err) {
      if (toDomainError(err)?.kind !== 'unauthenticated') throw err;
      await guard.signInFailed(req);
      throw new PageError(401, 'This sign-in link is unknown, used or expired. Ask for a new one.');
    }
  });

  r.post('/api/logout', needs(FORM_PROCEDURES.logout), form, async (req, res) => {
    requireForm(req, res);
    await caller(res).auth.session.logout();
    clearCookie(res, SESSION_COOKIE);
    res.redirect(303, '/settings/api');
  });

  r.post('/api/tokens', needs(FORM_PROCEDURES.createToken), form, async (req, res) => {
    const s = requireForm(req, res);
    try {
      const created = await caller(res).auth.tokens.create({ userId: field(req, 'user_id'), label: field(req, 'label') });
      await renderTokens(res, s, { created });
    } catch (err) {
      const domain = toDomainError(err);
      if (!(domain instanceof ValidationError)) throw err;
      await renderTokens(res, s, { status: 400, error: domain.violations.map((v) => v.message).join('; ') });
    }
  });

  r.post('/api/tokens/:id/delete', needs(FORM_PROCEDURES.deleteToken), form, async (req, res) => {
    requireForm(req, res);
    await caller(res).auth.tokens.delete({ id: req.params.id as string });
    res.redirect(303, '/settings/api');
  });

  r.use((_req, _res, next) => next(new PageError(404, 'Not found.')));

  // every failure as a plain page: never a stack, a path or a database message
  r.use((err: unknown, req: Request, res: Response, _next: NextFunction) => {
    if (err instanceof PageError) return renderPage(res, err.status, err.message);
    const domain = toDomainError(err);
    if (domain) return renderDomainError(domain, req, res);
    const type = (err as { type?: unknown } | null)?.type;
    if (type === 'entity.too.large') return renderPage(res, 413, 'The form is larger than allowed.');
    if (typeof type === 'string' || (err as { status?: number } | null)?.status === 400) {
      return renderPage(res, 400, 'The form could not be read.');
    }
    ctx.log.error({ err, requestId: req.headers['x-request-id'], path: req.path }, 'unhandled error in settings');
    renderPage(res, 500, 'Something went wrong. The request id is in the X-Request-Id header.');
  });
  return r;
}
