import { type PrismaClient, rawRead } from '@bo/db';
import { uuidv7 } from '../shared/ids.js';
import { sqlParams } from '../shared/sql-params.js';
import type { AttemptOutcome } from './attempt-delivery.js';
import { type ClaimedDelivery, msFromNow } from './delivery-claims.js';
import { type DeliveryStatus, verdict } from './delivery-policy.js';
import type { WebhookConfig } from './webhook-config.js';

export interface RecordAttemptOptions {
  prisma: PrismaClient;
  config: WebhookConfig;
  delivery: ClaimedDelivery;
  outcome: AttemptOutcome;
  /** the rest of the delivery's claimed run (none for a lone delivery) */
  run?: {
    /** the deliveries claimed after this one, in order */
    following: ClaimedDelivery[];
    /** the run goes on: the next one is counted as attempted; otherwise the rest is released */
    continues: boolean;
    /**
     * renew the leases of the whole rest with this record. Renewing at every step
     * would rewrite up to a run's worth of rows per event; the run renews often
     * enough that a lease never lapses while its worker lives (delivery-policy.ts).
     */
    renew: boolean;
    leaseMs: number;
  };
}

/**
 * Records an attempt and the rest of its run in one statement (so one round
 * trip, and atomic): the attempt's log line, the delivery's new state as the
 * run policy decides it, and the rest of the run: the next one counted as
 * attempted (with the others' leases renewed when due), or, when the run ends
 * here, every one released. Answers the delivery's new state (when it is tried again).
 */
export async function recordAttempt(opts: RecordAttemptOptions): Promise<{ status: DeliveryStatus; retryInMs: number }> {
  const { delivery: d, outcome, run } = opts;
  const next = verdict(opts.config, d, outcome);
  const { p, values } = sqlParams({
    attemptId: uuidv7(),
    environmentId: d.environmentId,
    deliveryId: d.id,
    attempt: d.attempt,
    statusCode: outcome.statusCode,
    error: outcome.error,
    latencyMs: outcome.latencyMs,
    startedAt: outcome.startedAt,
    status: next.status,
    retryInMs: next.retryInMs,
    rest: (run?.following ?? []).map((f) => f.id),
    continues: run?.continues ?? false,
    renew: run?.renew ?? false,
    leaseMs: Math.round(run?.leaseMs ?? 0),
  });
  await rawRead(opts.prisma)(
    `WITH logged AS (
       INSERT INTO webhook_attempt (id, environment_id, delivery_id, attempt, status_code, error, latency_ms, started_at, created_at, updated_at)
       VALUES (${p.attemptId}::uuid, ${p.environmentId}, ${p.deliveryId}::uuid, ${p.attempt}, ${p.statusCode}, ${p.error},
               ${p.latencyMs}, ${p.startedAt}, now(), now())
     ), run AS (
       UPDATE webhook_delivery
       SET lease_until = CASE WHEN NOT ${p.continues} THEN NULL
                              WHEN ${p.renew} THEN ${msFromNow(p.leaseMs)}
                              ELSE lease_until END,
           attempts = attempts + CASE WHEN ${p.continues} AND id = (${p.rest}::uuid[])[1] THEN 1 ELSE 0 END,
           updated_at = now()
       WHERE id = ANY(CASE WHEN ${p.continues} AND NOT ${p.renew} THEN (${p.rest}::uuid[])[1:1] ELSE ${p.rest}::uuid[] END)
         AND status = 'pending'
     )
     UPDATE webhook_delivery
     SET status = ${p.status}, lease_until = NULL, last_status_code = ${p.statusCode}, last_error = ${p.error},
         delivered_at = CASE WHEN ${p.status} = 'succeeded' THEN now() ELSE delivered_at END,
         next_attempt_at = ${msFromNow(p.retryInMs)}, updated_at = now()
     WHERE id = ${p.deliveryId}::uuid AND status = 'pending'`,
    values,
  );
  return next;
}
