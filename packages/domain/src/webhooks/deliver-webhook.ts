import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import type { PrismaClient } from '@bo/db';
import { uuidv7 } from '../shared/ids.js';
import { signBody } from './signature.js';
import { checkTarget } from './target-policy.js';
import { retryDelayMs, type WebhookConfig } from './webhook-config.js';

export interface ClaimedDelivery {
  id: string;
  subscriptionId: string;
  environmentId: string;
  environment: string;
  attempt: number;
  retryFrom: Date;
  url: string;
  secret: string;
  eventId: string;
  eventType: string;
  occurredAt: Date;
  data: unknown;
}

/**
 * Claims up to `limit` due deliveries, at most one per subscription: the head
 * (lowest event seq) of each subscription's pending deliveries, so a
 * subscription's events go out one after another in order. The claim is a
 * lease: a worker that dies mid-delivery loses it when it expires and another
 * worker sends the delivery again (at least once). The UPDATE re-checks the
 * lease on the locked row, so two workers never both win one claim.
 */
const CLAIMED_SELECT = `
     SELECT c.id, c.subscription_id, c.environment_id, env.name AS environment, c.attempts, c.retry_from, s.url, s.secret,
            e.id AS event_id, e.type AS event_type, e.occurred_at, e.data
     FROM claimed c
     JOIN webhook_subscription s ON s.id = c.subscription_id
     JOIN event e ON e.id = c.event_id
     JOIN environment env ON env.id = c.environment_id`;

const LEASE = `
       UPDATE webhook_delivery d
       SET lease_until = now() + ($2::int * interval '1 millisecond'), attempts = d.attempts + 1, updated_at = now()
       FROM due
       WHERE d.id = due.id AND d.status = 'pending' AND d.next_attempt_at <= now()
         AND (d.lease_until IS NULL OR d.lease_until < now())
       RETURNING d.*`;

interface ClaimedRow {
  id: string;
  subscription_id: string;
  environment_id: string;
  environment: string;
  attempts: number;
  retry_from: Date;
  url: string;
  secret: string;
  event_id: string;
  event_type: string;
  occurred_at: Date;
  data: unknown;
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
    eventId: r.event_id,
    eventType: r.event_type,
    occurredAt: r.occurred_at,
    data: r.data,
  };
}

/**
 * Claims up to `limit` due deliveries, at most one per subscription: the head
 * (lowest event seq) of each subscription's pending deliveries, so a
 * subscription's events go out one after another in order. The claim is a
 * lease: a worker that dies mid-delivery loses it when it expires and another
 * worker sends the delivery again (at least once). The UPDATE re-checks the
 * lease on the locked row, so two workers never both win one claim.
 */
export async function claimDeliveries(prisma: PrismaClient, limit: number, leaseMs: number): Promise<ClaimedDelivery[]> {
  if (limit <= 0) return [];
  const rows = await prisma.$queryRawUnsafe<ClaimedRow[]>(
    `WITH heads AS (
       SELECT DISTINCT ON (d.subscription_id) d.id, d.next_attempt_at, d.lease_until
       FROM webhook_delivery d
       JOIN webhook_subscription s ON s.id = d.subscription_id AND s.is_active
       WHERE d.status = 'pending'
       ORDER BY d.subscription_id, d.event_seq
     ), due AS (
       SELECT id FROM heads
       WHERE next_attempt_at <= now() AND (lease_until IS NULL OR lease_until < now())
       ORDER BY next_attempt_at
       LIMIT $1
     ), claimed AS (${LEASE})
     ${CLAIMED_SELECT}`,
    limit,
    Math.round(leaseMs),
  );
  return rows.map(toClaimed);
}

/**
 * After a success, the same worker takes the subscription's next pending
 * delivery at once (when it is due and free): a backlog drains without a
 * round of polling per event, and still strictly in order.
 */
export async function claimNextOfSubscription(
  prisma: PrismaClient,
  subscriptionId: string,
  leaseMs: number,
): Promise<ClaimedDelivery | null> {
  const rows = await prisma.$queryRawUnsafe<ClaimedRow[]>(
    `WITH due AS (
       SELECT d.id FROM webhook_delivery d
       JOIN webhook_subscription s ON s.id = d.subscription_id AND s.is_active
       WHERE d.subscription_id = $1 AND d.status = 'pending'
       ORDER BY d.event_seq
       LIMIT 1
     ), claimed AS (${LEASE})
     ${CLAIMED_SELECT}`,
    subscriptionId,
    Math.round(leaseMs),
  );
  return rows[0] ? toClaimed(rows[0]) : null;
}

/** The exact bytes sent (and signed): the same for every attempt of one event. */
export function deliveryBody(d: ClaimedDelivery): string {
  return JSON.stringify({
    id: d.eventId,
    type: d.eventType,
    occurredAt: d.occurredAt.toISOString(),
    environment: d.environment,
    data: d.data,
  });
}

interface AttemptResult {
  statusCode: number | null;
  error: string | null;
  latencyMs: number;
}

function post(url: URL, body: string, headers: Record<string, string>, timeoutMs: number, pinned: LookupFunction) {
  return new Promise<number>((resolve, reject) => {
    const doRequest = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = doRequest(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        lookup: pinned,
        agent: false,
      },
      (res) => {
        // the answer's body is not needed; read it so the socket closes cleanly
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      },
    );
    const timer = setTimeout(() => req.destroy(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    req.on('close', () => clearTimeout(timer));
    req.on('error', reject);
    req.end(body);
  });
}

/** One attempt: re-checks the target, signs and POSTs, then records the outcome. */
export async function sendDelivery(prisma: PrismaClient, config: WebhookConfig, d: ClaimedDelivery): Promise<AttemptResult> {
  const startedAt = new Date();
  const started = performance.now();
  const body = deliveryBody(d);
  let result: AttemptResult;
  try {
    const url = new URL(d.url);
    const target = await checkTarget(url, config.allowPrivateTargets);
    if (!target.ok) throw new Error(`target refused: ${target.reason}`);
    // connect to the address just checked, so a name cannot resolve elsewhere in between
    const pinned: LookupFunction = (_host, opts, cb) => {
      if ((opts as { all?: boolean }).all)
        (cb as (e: null, a: { address: string; family: number }[]) => void)(null, [
          { address: target.address, family: target.family },
        ]);
      else cb(null, target.address, target.family);
    };
    const statusCode = await post(
      url,
      body,
      {
        'content-type': 'application/json',
        'user-agent': 'bizops-webhooks/1',
        'x-webhook-id': d.eventId,
        'x-webhook-event': d.eventType,
        'x-webhook-delivery': d.id,
        'x-webhook-attempt': String(d.attempt),
        'x-webhook-environment': `${d.environment}.${config.publicDomain}`,
        'x-webhook-signature': signBody(d.secret, body),
      },
      config.timeoutMs,
      pinned,
    );
    result = {
      statusCode,
      error: statusCode >= 200 && statusCode < 300 ? null : `answered ${statusCode}`,
      latencyMs: Math.round(performance.now() - started),
    };
  } catch (err) {
    result = {
      statusCode: null,
      error: (err as Error).message ?? String(err),
      latencyMs: Math.round(performance.now() - started),
    };
  }
  await recordAttempt(prisma, config, d, startedAt, result);
  return result;
}

async function recordAttempt(prisma: PrismaClient, config: WebhookConfig, d: ClaimedDelivery, startedAt: Date, r: AttemptResult) {
  const ok = r.error === null;
  const now = Date.now();
  const delay = retryDelayMs(config, d.attempt);
  const giveUp = !ok && now + delay - d.retryFrom.getTime() > config.retryWindowMs;
  // one statement (so one round trip, and atomic): the attempt's log line and the delivery's new state
  await prisma.$executeRawUnsafe(
    `WITH logged AS (
       INSERT INTO webhook_attempt (id, environment_id, delivery_id, attempt, status_code, error, latency_ms, started_at, created_at, updated_at)
       VALUES ($6::uuid, $7, $1::uuid, $8, $3, $4, $9, $10, now(), now())
     )
     UPDATE webhook_delivery
     SET status = $2, lease_until = NULL, last_status_code = $3, last_error = $4,
         delivered_at = CASE WHEN $2 = 'succeeded' THEN now() ELSE delivered_at END,
         next_attempt_at = now() + ($5::int * interval '1 millisecond'), updated_at = now()
     WHERE id = $1::uuid AND status = 'pending'`,
    d.id,
    ok ? 'succeeded' : giveUp ? 'failed' : 'pending',
    r.statusCode,
    r.error,
    ok || giveUp ? 0 : delay,
    uuidv7(),
    d.environmentId,
    d.attempt,
    r.latencyMs,
    startedAt,
  );
}
