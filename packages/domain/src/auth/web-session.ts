import { randomBytes } from 'node:crypto';
import { rawRead } from '@bo/db';
import { z } from 'zod';
import type { DomainContext } from '../shared/context.js';
import { NotFoundError, UnauthenticatedError } from '../shared/errors.js';
import { newEntityId } from '../shared/ids.js';
import { rightsSchema } from '../shared/rights.js';
import { findEnvironmentId, userPrincipalSchema } from './authenticate.js';
import { hashPassword, passwordMatches } from './password.js';
import type { UserContext } from '../trpc.js';
import { hashSecret } from './token-secret.js';

/**
 * Browser sessions of the environment's settings pages and of download_url.
 * The cookie carries a 256-bit secret; only its SHA-256 is stored. A session
 * ends when it expires or when its user logs out (every session of the user
 * ends then), and it never works for another environment.
 */
export const SESSION_HOURS = 8;
export const LOGIN_LINK_MINUTES = 30;

export const webSessionSchema = z.object({
  sessionId: z.string(),
  csrfToken: z.string(),
  expiresAt: z.date(),
  email: z.string(),
  name: z.string(),
  principal: userPrincipalSchema,
});
export type WebSession = z.infer<typeof webSessionSchema>;

/** A new session: the secret for the cookie (only its hash is stored) and when it ends. */
export const openedSessionSchema = z.object({ secret: z.string(), expiresAt: z.date() });
export type OpenedSession = z.infer<typeof openedSessionSchema>;

export const loggedOutSchema = z.object({ ended: z.number().int() });
export const passwordSetSchema = z.object({ email: z.string() });
export const loginLinkSchema = z.object({ email: z.string(), secret: z.string(), expiresAt: z.date() });

export const loginInput = z.object({
  environment: z.string(),
  email: z.string().trim().toLowerCase().max(320),
  password: z.string().max(4096),
});

async function environmentId(ctx: DomainContext, name: string): Promise<string> {
  const id = await findEnvironmentId(ctx, name);
  if (!id) throw new NotFoundError('environment');
  return id;
}

async function openSession(ctx: DomainContext, environmentId: string, userId: string): Promise<OpenedSession> {
  const secret = randomBytes(32).toString('base64url');
  const now = ctx.clock.now();
  const expiresAt = new Date(now.getTime() + SESSION_HOURS * 3600_000);
  await ctx.prisma.webSession.create({
    data: {
      id: newEntityId('websession'),
      environmentId,
      userId,
      secretHash: hashSecret(secret),
      csrfToken: randomBytes(32).toString('base64url'),
      createdAt: now,
      expiresAt,
    },
  });
  return { secret, expiresAt };
}

/** E-mail and password: a new session's secret (for the cookie), or Unauthenticated, saying nothing of which was wrong. */
export async function login(ctx: DomainContext, input: z.infer<typeof loginInput>): Promise<OpenedSession> {
  const envId = await environmentId(ctx, input.environment);
  const user = await ctx.prisma.user.findFirst({
    where: { environmentId: envId, email: { equals: input.email, mode: 'insensitive' } },
  });
  const ok = await passwordMatches(input.password, user?.isActive ? user.passwordHash : null);
  if (!user || !ok) throw new UnauthenticatedError('wrong e-mail or password');
  return openSession(ctx, envId, user.id);
}

interface SessionRow {
  id: string;
  environmentId: string;
  userId: string;
  csrfToken: string;
  expiresAt: Date;
  endedAt: Date | null;
  email: string;
  name: string;
  isActive: boolean;
  rights: unknown;
}

/** The session of a cookie's secret in the host's environment; null when there is none that still holds. */
export async function resolveSession(
  ctx: DomainContext,
  input: { environment: string; secret: string | null },
): Promise<WebSession | null> {
  if (!input.secret || input.secret.length > 128) return null;
  const envId = await findEnvironmentId(ctx, input.environment);
  if (!envId) return null;
  const [row] = await rawRead(ctx.prisma)<SessionRow>(
    `SELECT s.id, s.environment_id AS "environmentId", s.user_id AS "userId", s.csrf_token AS "csrfToken",
            s.expires_at AS "expiresAt", s.ended_at AS "endedAt", u.email, u.name, u.is_active AS "isActive", u.rights
       FROM web_session s JOIN user_account u ON u.id = s.user_id
      WHERE s.secret_hash = $1`,
    [hashSecret(input.secret)],
  );
  if (!row || row.environmentId !== envId || row.endedAt || !row.isActive) return null;
  if (new Date(row.expiresAt).getTime() <= ctx.clock.now().getTime()) return null;
  const rights = rightsSchema.safeParse(row.rights);
  return {
    sessionId: row.id,
    csrfToken: row.csrfToken,
    expiresAt: new Date(row.expiresAt),
    email: row.email,
    name: row.name,
    principal: {
      kind: 'user',
      environmentId: envId,
      environmentName: input.environment,
      userId: row.userId,
      tokenId: null,
      rights: rights.success ? rights.data : {},
    },
  };
}

/** Logging out ends every session of the user, in every browser. */
export async function logoutEverywhere(ctx: UserContext): Promise<z.infer<typeof loggedOutSchema>> {
  const ended = await ctx.db.webSession.updateMany({
    where: { userId: ctx.principal.userId, endedAt: null },
    data: { endedAt: ctx.clock.now() },
  });
  return { ended: ended.count };
}

async function userOf(ctx: DomainContext, environment: string, email: string) {
  const envId = await environmentId(ctx, environment);
  const user = await ctx.prisma.user.findFirst({
    where: { environmentId: envId, email: { equals: email.trim(), mode: 'insensitive' } },
  });
  if (!user) throw new NotFoundError('user', email);
  return user;
}

/** admin CLI: sets a user's password (hashed with Argon2id). */
export async function setPassword(
  ctx: DomainContext,
  input: { environment: string; email: string; password: string },
): Promise<z.infer<typeof passwordSetSchema>> {
  const user = await userOf(ctx, input.environment, input.email);
  const passwordHash = await hashPassword(input.password);
  await ctx.prisma.user.update({ where: { id: user.id }, data: { passwordHash } });
  return { email: user.email };
}

/** admin CLI: a one-time sign-in link's secret, valid for LOGIN_LINK_MINUTES. */
export async function createLoginLink(
  ctx: DomainContext,
  input: { environment: string; email: string },
): Promise<z.infer<typeof loginLinkSchema>> {
  const user = await userOf(ctx, input.environment, input.email);
  const secret = randomBytes(32).toString('base64url');
  const expiresAt = new Date(ctx.clock.now().getTime() + LOGIN_LINK_MINUTES * 60_000);
  await ctx.prisma.loginLink.create({
    data: {
      id: newEntityId('loginlink'),
      environmentId: user.environmentId,
      userId: user.id,
      secretHash: hashSecret(secret),
      expiresAt,
    },
  });
  return { email: user.email, secret, expiresAt };
}

/** Signs in with a one-time link: used once, before it expires, in its own environment. */
export async function consumeLoginLink(
  ctx: DomainContext,
  input: { environment: string; secret: string },
): Promise<OpenedSession> {
  const envId = await environmentId(ctx, input.environment);
  const now = ctx.clock.now();
  // used and checked in one statement: two clicks cannot both sign in
  const used = await ctx.prisma.loginLink.updateManyAndReturn({
    where: { environmentId: envId, secretHash: hashSecret(input.secret), usedAt: null, expiresAt: { gt: now } },
    data: { usedAt: now },
  });
  const link = used[0];
  if (!link) throw new UnauthenticatedError('this sign-in link is unknown, used or expired');
  const user = await ctx.prisma.user.findFirst({ where: { id: link.userId, isActive: true } });
  if (!user) throw new UnauthenticatedError('this sign-in link is unknown, used or expired');
  return openSession(ctx, envId, user.id);
}
