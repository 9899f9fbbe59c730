import { type PrismaClient, rawRead } from '@bo/db';
import { sqlParams } from '../shared/sql-params.js';

/** A delivery this worker holds a lease on, with what it needs to send it. */
export interface ClaimedDelivery {
  id: string;
  subscriptionId: string;
  environmentId: string;
  environment: string;
  attempt: number;
  retryFrom: Date;
  url: string;
  secret: string;
  /** the secret a rotation replaced, while it is still valid: deliveries are signed with both */
  previousSecret: string | null;
  eventId: string;
  eventType: string;
  occurredAt: Date;
  data: unknown;
  /** the X-Request-Id of the request that made the change (sent on as x-request-id), if one did */
  requestId: string | null;
}

/** `ms` (a parameter's placeholder) milliseconds from now: the end of a lease, the time of a retry */
export const msFromNow = (ms: string): string => `now() + (${ms}::int * interval '1 millisecond')`;

/** due and not leased (or its lease lapsed) */
const FREE = `d.next_attempt_at <= now() AND (d.lease_until IS NULL OR d.lease_until < now())`;

/** the columns a claim hands on, from the leased rows to the joined answer */
const COLUMNS = ['id', 'subscription_id', 'environment_id', 'event_id', 'attempts', 'retry_from'];
const CLAIM_COLUMNS = COLUMNS.join(', ');
const LEASED_COLUMNS = COLUMNS.map((c) => `d.${c}`).join(', ');

/**
 * Leases the deliveries the CTE `source` lists (by `id`) for `leaseMs`. The
 * UPDATE re-checks the lease on each locked row, so two workers never both win
 * one claim. `countAttempt`: the attempt is counted now, when it is claimed.
 */
function lease(source: string, leaseMs: string, countAttempt: boolean, returning: string): string {
  return `UPDATE webhook_delivery d
       SET lease_until = ${msFromNow(leaseMs)},${countAttempt ? ' attempts = d.attempts + 1,' : ''} updated_at = now()
       FROM ${source} src
       WHERE d.id = src.id AND d.status = 'pending' AND ${FREE}
       RETURNING ${returning}`;
}

/** The leased rows of the CTE `claimed` (in its `ord`er) with their subscription, event and environment. */
const SELECT_CLAIMED = `
     SELECT c.id, c.subscription_id, c.environment_id, env.name AS environment, c.attempts, c.retry_from, s.url, s.secret,
            CASE WHEN s.previous_secret_expires_at > now() THEN s.previous_secret END AS previous_secret,
            e.id AS event_id, e.type AS event_type, e.occurred_at, e.data, e.request_id, c.ord
     FROM claimed c
     JOIN webhook_subscription s ON s.id = c.subscription_id
     JOIN event e ON e.id = c.event_id
     JOIN environment env ON env.id = c.environment_id
     ORDER BY c.ord`;

interface ClaimedRow {
  id: string;
  subscription_id: string;
  environment_id: string;
  environment: string;
  attempts: number;
  retry_from: Date;
  url: string;
  secret: string;
  previous_secret: string | null;
  event_id: string;
  event_type: string;
  occurred_at: Date;
  data: unknown;
  request_id: string | null;
  ord: number;
}

function toClaimed(r: ClaimedRow): ClaimedDelivery {
  return {
    id: r.id,
    subscriptionId: r.subscription_id,
    environmentId: r.environment_id,
    environment: r.environment,
    attempt: r.attempts,
    retryFrom: r.retry_from,
    url: r.url,
    secret: r.secret,
    previousSecret: r.previous_secret,
    eventId: r.event_id,
    eventType: r.event_type,
    occurredAt: r.occurred_at,
    data: r.data,
    requestId: r.request_id,
  };
}

export interface ClaimOptions {
  /**
   * The scopes in scheduled maintenance (environment names, `*` for all), as the first cluster holds
   * them: for a cluster other than the first, whose `maintenance_window` is empty. Absent: the claim
   * reads the windows of its own cluster (the first, or the only one).
   */
  maintenance?: readonly string[];
}

/**
 * Claims up to `limit` due deliveries, at most one per subscription: the head
 * (lowest event seq) of each subscription's pending deliveries, so a
 * subscription's events go out one after another in order. The claim is a
 * lease: a worker that dies mid-delivery loses it when it expires and another
 * worker sends the delivery again (at least once).
 */
export async function claimDeliveries(
  prisma: PrismaClient,
  limit: number,
  leaseMs: number,
  options: ClaimOptions = {},
): Promise<ClaimedDelivery[]> {
  if (limit <= 0) return [];
  const paused = options.maintenance;
  if (paused?.includes('*')) return [];
  const { p, values } = sqlParams({ limit, leaseMs: Math.round(leaseMs), ...(paused ? { paused: [...paused] } : {}) });
  // scheduled maintenance: the environment's deliveries wait, unclaimed and uncounted (the windows
  // are the first cluster's: there read in the claim itself, elsewhere given by the caller)
  const maintenance = paused
    ? `AND NOT EXISTS (SELECT 1 FROM environment e WHERE e.id = d.environment_id AND e.name = ANY(${p.paused}::text[]))`
    : `AND NOT EXISTS (SELECT 1 FROM maintenance_window m JOIN environment e ON e.id = d.environment_id
                          WHERE m.scope = '*' OR m.scope = e.name)`;
  const rows = await rawRead(prisma)<ClaimedRow>(
    `WITH heads AS (
       SELECT DISTINCT ON (d.subscription_id) d.id, d.next_attempt_at, d.lease_until
       FROM webhook_delivery d
       JOIN webhook_subscription s ON s.id = d.subscription_id AND s.is_active
       WHERE d.status = 'pending'
         ${maintenance}
       ORDER BY d.subscription_id, d.event_seq
     ), due AS (
       SELECT d.id FROM heads d
       WHERE ${FREE}
       ORDER BY d.next_attempt_at
       LIMIT ${p.limit}
     ), claimed AS (${lease('due', p.leaseMs, true, `${LEASED_COLUMNS}, 0 AS ord`)})
     ${SELECT_CLAIMED}`,
    values,
  );
  return rows.map(toClaimed);
}

/**
 * After a success, the same worker takes the next run of the subscription's
 * pending deliveries (up to `max`) under one claim: a backlog drains without a
 * round of polling, and without a claim round trip, per event.
 *
 * Order stays strict because the run is anchored on the subscription's head:
 * the `lead` UPDATE re-checks the head's latest row version (pending, due, not
 * leased), so at most one worker wins it, and only the statement that won the
 * head leases the deliveries after it. Only the head counts as attempted now;
 * each later one is counted when the worker reaches it (recordAttempt), so a
 * worker killed mid-run leaves exact attempt counts, and the run's leases are
 * renewed as it goes, so they only lapse when the worker is gone.
 */
export async function claimRunOfSubscription(
  prisma: PrismaClient,
  subscriptionId: string,
  leaseMs: number,
  max: number,
): Promise<ClaimedDelivery[]> {
  const { p, values } = sqlParams({ subscriptionId, leaseMs: Math.round(leaseMs), following: Math.max(0, max - 1) });
  const rows = await rawRead(prisma)<ClaimedRow>(
    `WITH head AS (
       SELECT d.id FROM webhook_delivery d
       JOIN webhook_subscription s ON s.id = d.subscription_id AND s.is_active
       WHERE d.subscription_id = ${p.subscriptionId} AND d.status = 'pending'
       ORDER BY d.event_seq
       LIMIT 1
     ), lead AS (${lease('head', p.leaseMs, true, 'd.*')}
     ), candidates AS (
       SELECT d.id, row_number() OVER (ORDER BY d.event_seq)::int AS ord
       FROM webhook_delivery d JOIN lead ON d.subscription_id = lead.subscription_id
       WHERE d.status = 'pending' AND d.event_seq > lead.event_seq
       ORDER BY d.event_seq
       LIMIT ${p.following}
     ), follow AS (${lease('candidates', p.leaseMs, false, `${LEASED_COLUMNS}, src.ord`)}
     ), claimed AS (
       SELECT ${CLAIM_COLUMNS}, 0 AS ord FROM lead
       UNION ALL SELECT ${CLAIM_COLUMNS}, ord FROM follow
     )
     ${SELECT_CLAIMED}`,
    values,
  );
  // the run is the head and the deliveries right after it; should one in between have
  // escaped the claim, the run stops before it (the rest are released by the first record)
  const run: ClaimedDelivery[] = [];
  const stray: string[] = [];
  for (const r of rows) {
    if (r.ord === run.length && stray.length === 0) run.push(toClaimed(r));
    else stray.push(r.id);
  }
  if (stray.length > 0) await releaseDeliveries(prisma, stray);
  return run;
}

/** Gives back leased deliveries that were never attempted (a run cut short). */
export async function releaseDeliveries(prisma: PrismaClient, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  const { p, values } = sqlParams({ ids });
  await rawRead(prisma)(
    `UPDATE webhook_delivery SET lease_until = NULL, updated_at = now() WHERE id = ANY(${p.ids}::uuid[]) AND status = 'pending'`,
    values,
  );
}
