import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
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
         -- scheduled maintenance: the environment's deliveries wait, unclaimed and uncounted
         AND NOT EXISTS (SELECT 1 FROM maintenance_window m JOIN environment e ON e.id = d.environment_id
                          WHERE m.scope = '*' OR m.scope = e.name)
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
 * renewed at every step, so they only lapse when the worker is gone.
 */
export async function claimRunOfSubscription(
  prisma: PrismaClient,
  subscriptionId: string,
  leaseMs: number,
  max: number,
): Promise<ClaimedDelivery[]> {
  const rows = await prisma.$queryRawUnsafe<(ClaimedRow & { ord: number })[]>(
    `WITH head AS (
       SELECT d.id FROM webhook_delivery d
       JOIN webhook_subscription s ON s.id = d.subscription_id AND s.is_active
       WHERE d.subscription_id = $1 AND d.status = 'pending'
       ORDER BY d.event_seq
       LIMIT 1
     ), lead AS (
       UPDATE webhook_delivery d
       SET lease_until = now() + ($2::int * interval '1 millisecond'), attempts = d.attempts + 1, updated_at = now()
       FROM head
       WHERE d.id = head.id AND d.status = 'pending' AND d.next_attempt_at <= now()
         AND (d.lease_until IS NULL OR d.lease_until < now())
       RETURNING d.*
     ), candidates AS (
       SELECT d.id, row_number() OVER (ORDER BY d.event_seq)::int AS ord
       FROM webhook_delivery d JOIN lead ON d.subscription_id = lead.subscription_id
       WHERE d.status = 'pending' AND d.event_seq > lead.event_seq
       ORDER BY d.event_seq
       LIMIT $3
     ), follow AS (
       UPDATE webhook_delivery d
       SET lease_until = now() + ($2::int * interval '1 millisecond'), updated_at = now()
       FROM candidates c
       WHERE d.id = c.id AND d.status = 'pending' AND d.next_attempt_at <= now()
         AND (d.lease_until IS NULL OR d.lease_until < now())
       RETURNING d.id, d.subscription_id, d.environment_id, d.event_id, d.attempts, d.retry_from, c.ord
     ), claimed AS (
       SELECT id, subscription_id, environment_id, event_id, attempts, retry_from, 0 AS ord FROM lead
       UNION ALL SELECT id, subscription_id, environment_id, event_id, attempts, retry_from, ord FROM follow
     )
     SELECT c.id, c.subscription_id, c.environment_id, env.name AS environment, c.attempts, c.retry_from, s.url, s.secret,
            e.id AS event_id, e.type AS event_type, e.occurred_at, e.data, c.ord
     FROM claimed c
     JOIN webhook_subscription s ON s.id = c.subscription_id
     JOIN event e ON e.id = c.event_id
     JOIN environment env ON env.id = c.environment_id
     ORDER BY c.ord`,
    subscriptionId,
    Math.round(leaseMs),
    Math.max(0, max - 1),
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
  await prisma.$executeRawUnsafe(
    `UPDATE webhook_delivery SET lease_until = NULL, updated_at = now() WHERE id = ANY($1::uuid[]) AND status = 'pending'`,
    ids,
  );
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

export interface AttemptOutcome extends AttemptResult {
  startedAt: Date;
}

/**
 * Keep-alive connections to receivers, one agent per origin and checked address:
 * a new TCP (and TLS) connection per event costs more than the event itself, and
 * keying by the address means a socket is only reused for the address that was
 * checked when it was opened.
 */
export class DeliveryConnections {
  private readonly agents = new Map<string, HttpAgent>();

  agentFor(url: URL, address: string): HttpAgent {
    const key = `${url.protocol}//${url.host}|${address}`;
    let agent = this.agents.get(key);
    if (!agent) {
      agent = url.protocol === 'https:' ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true });
      if (this.agents.size >= 256) {
        // many targets: drop the least recently created pool rather than grow without bound
        const [oldestKey, oldest] = this.agents.entries().next().value as [string, HttpAgent];
        oldest.destroy();
        this.agents.delete(oldestKey);
      }
      this.agents.set(key, agent);
    }
    return agent;
  }

  /** closes the kept-alive connections (a stopping worker, after its deliveries ended) */
  close(): void {
    for (const agent of this.agents.values()) agent.destroy();
    this.agents.clear();
  }
}

function postOnce(
  url: URL,
  body: string,
  headers: Record<string, string>,
  timeoutMs: number,
  pinned: LookupFunction,
  agent: HttpAgent,
) {
  return new Promise<{ status: number } | { reusedSocketLost: true }>((resolve, reject) => {
    const doRequest = url.protocol === 'https:' ? httpsRequest : httpRequest;
    let answered = false;
    const req = doRequest(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        lookup: pinned,
        agent,
      },
      (res) => {
        answered = true;
        // the answer's body is not needed; read it so the socket can be reused
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0 }));
        res.on('error', reject);
      },
    );
    const timer = setTimeout(() => req.destroy(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    req.on('close', () => clearTimeout(timer));
    req.on('error', (err: NodeJS.ErrnoException) => {
      // a kept-alive socket the receiver closed while idle: nothing was answered, send again on a new one
      if (!answered && req.reusedSocket && (err.code === 'ECONNRESET' || err.code === 'EPIPE')) {
        resolve({ reusedSocketLost: true });
      } else reject(err);
    });
    req.end(body);
  });
}

async function post(
  url: URL,
  body: string,
  headers: Record<string, string>,
  timeoutMs: number,
  pinned: LookupFunction,
  agent: HttpAgent,
) {
  const first = await postOnce(url, body, headers, timeoutMs, pinned, agent);
  if ('status' in first) return first.status;
  const again = await postOnce(url, body, headers, timeoutMs, pinned, agent);
  if ('status' in again) return again.status;
  throw new Error('the connection was closed before an answer');
}

/**
 * The rest of a claimed run, for the attempt's record: after a success the next
 * delivery is counted as attempted (and, when `renew` says so, the run's leases
 * are renewed); otherwise (a failure, or a worker that is stopping) they are
 * released at once.
 */
export interface RunRest {
  following: ClaimedDelivery[];
  /** the worker's kept-alive connections */
  connections: DeliveryConnections;
  leaseMs: number;
  /**
   * renew the leases of the whole rest with this record. Renewing at every step
   * would rewrite up to a run's worth of rows per event; the caller renews often
   * enough that a lease never lapses while its worker lives (see the loop).
   */
  renew: boolean;
  /** false when the worker is stopping: the run ends after this delivery */
  keepGoing(): boolean;
}

/** One attempt, not yet recorded: re-checks the target, signs and POSTs. */
export async function attemptDelivery(
  config: WebhookConfig,
  d: ClaimedDelivery,
  connections?: DeliveryConnections,
): Promise<AttemptOutcome> {
  const startedAt = new Date();
  const started = performance.now();
  const body = deliveryBody(d);
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
      connections ? connections.agentFor(url, target.address) : new HttpAgent({ keepAlive: false }),
    );
    return {
      startedAt,
      statusCode,
      error: statusCode >= 200 && statusCode < 300 ? null : `answered ${statusCode}`,
      latencyMs: Math.round(performance.now() - started),
    };
  } catch (err) {
    return {
      startedAt,
      statusCode: null,
      error: (err as Error).message ?? String(err),
      latencyMs: Math.round(performance.now() - started),
    };
  }
}

/**
 * Records an attempt; with `rest`, also the rest of its run: when `continues`,
 * `rest.following[0]` is counted as attempted, otherwise the rest is released.
 */
export async function recordDelivery(
  prisma: PrismaClient,
  config: WebhookConfig,
  d: ClaimedDelivery,
  outcome: AttemptOutcome,
  continues: boolean,
  rest?: RunRest,
): Promise<void> {
  const following = rest?.following ?? [];
  await recordAttempt(
    prisma,
    config,
    d,
    outcome.startedAt,
    outcome,
    following,
    continues,
    rest?.renew ?? false,
    rest?.leaseMs ?? 0,
  );
}

/** whether a run goes on after this outcome: a success, more claimed, and a worker not stopping */
export function runContinues(outcome: AttemptResult, rest?: RunRest): boolean {
  return outcome.error === null && (rest?.following.length ?? 0) > 0 && (rest?.keepGoing() ?? false);
}

/** One attempt, then its record (as resend and the tests use it). */
export async function sendDelivery(
  prisma: PrismaClient,
  config: WebhookConfig,
  d: ClaimedDelivery,
  rest?: RunRest,
): Promise<AttemptResult & { continues: boolean }> {
  const outcome = await attemptDelivery(config, d, rest?.connections);
  const continues = runContinues(outcome, rest);
  await recordDelivery(prisma, config, d, outcome, continues, rest);
  const next = rest?.following[0];
  if (continues && next) next.attempt += 1;
  return { ...outcome, continues };
}

async function recordAttempt(
  prisma: PrismaClient,
  config: WebhookConfig,
  d: ClaimedDelivery,
  startedAt: Date,
  r: AttemptResult,
  following: ClaimedDelivery[],
  continues: boolean,
  renew: boolean,
  leaseMs: number,
) {
  const ok = r.error === null;
  const now = Date.now();
  const delay = retryDelayMs(config, d.attempt);
  const giveUp = !ok && now + delay - d.retryFrom.getTime() > config.retryWindowMs;
  // one statement (so one round trip, and atomic): the attempt's log line, the delivery's new
  // state and the rest of the run: the next one counted as attempted (with the others' leases
  // renewed when due), or, when the run ends here, every one released
  await prisma.$executeRawUnsafe(
    `WITH logged AS (
       INSERT INTO webhook_attempt (id, environment_id, delivery_id, attempt, status_code, error, latency_ms, started_at, created_at, updated_at)
       VALUES ($6::uuid, $7, $1::uuid, $8, $3, $4, $9, $10, now(), now())
     ), run AS (
       UPDATE webhook_delivery
       SET lease_until = CASE WHEN NOT $12 THEN NULL
                              WHEN $14 THEN now() + ($13::int * interval '1 millisecond')
                              ELSE lease_until END,
           attempts = attempts + CASE WHEN $12 AND id = ($11::uuid[])[1] THEN 1 ELSE 0 END,
           updated_at = now()
       WHERE id = ANY(CASE WHEN $12 AND NOT $14 THEN ($11::uuid[])[1:1] ELSE $11::uuid[] END) AND status = 'pending'
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
    following.map((f) => f.id),
    continues,
    Math.round(leaseMs),
    renew,
  );
}
