import type { Request, Response } from 'express';

/**
 * The browser session's cookie (settings pages and download_url). The __Host-
 * prefix makes the browser keep it only when it is Secure, host-only and for
 * Path=/; HttpOnly keeps it from scripts; SameSite=Strict from other sites' requests.
 */
export const SESSION_COOKIE = '__Host-bo_session';
/** the login form's double-submit CSRF value (there is no session yet to hold one) */
export const LOGIN_CSRF_COOKIE = '__Host-bo_login_csrf';

/** One cookie of the request (the first of that name), or null. */
export function readCookie(req: Request, name: string): string | null {
  const header = req.headers.cookie;
  if (!header) return null;
  for (const part of header.split(';')) {
    const i = part.indexOf('=');
    if (i === -1) continue;
    if (part.slice(0, i).trim() === name) {
      const raw = part.slice(i + 1).trim();
      try {
        return decodeURIComponent(raw);
      } catch {
        return null;
      }
    }
  }
  return null;
}

export function setCookie(res: Response, name: string, value: string, maxAgeSeconds: number): void {
  res.append(
    'Set-Cookie',
    `${name}=${encodeURIComponent(value)}; Path=/; Max-Age=${maxAgeSeconds}; HttpOnly; Secure; SameSite=Strict`,
  );
}

export function clearCookie(res: Response, name: string): void {
  res.append('Set-Cookie', `${name}=; Path=/; Max-Age=0; HttpOnly; Secure; SameSite=Strict`);
}

/** Whether the request came over TLS (directly, or through a trusted proxy that says so). */
export function isSecureRequest(req: Request, trustProxy: boolean): boolean {
  if (trustProxy) {
    const forwarded = req.headers['x-forwarded-proto'];
    if (typeof forwarded === 'string') return forwarded.split(',')[0]?.trim() === 'https';
  }
  return Boolean((req.socket as { encrypted?: boolean }).encrypted);
}
