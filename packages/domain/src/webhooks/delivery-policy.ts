import type { AttemptOutcome } from './attempt-delivery.js';
import type { WebhookConfig } from './webhook-config.js';

/**
 * The run policy of webhook delivery: how long a claim holds, how long a run
 * of one subscription's deliveries may be, when a failed delivery is tried
 * again and when it is given up. The order per subscription follows from the
 * claims (only a subscription's head is claimable) and from runs that stop at
 * the first failure (deliver-run.ts).
 */

/**
 * The notifications that wake the delivery loop (triggers of migration
 * 20261124220000_event_recorded_notify): an event was committed to the outbox; a
 * failed delivery was put back in the queue. Their payload is empty.
 */
export const WAKE_CHANNELS = ['event_recorded', 'webhook_delivery_due'] as const;

/** deliveries of one subscription claimed at once (a lease each, renewed as the run goes) */
export const RUN_SIZE = 100;

/** events fanned out into deliveries per dispatcher round */
export const DISPATCH_BATCH = 1000;

/**
 * least time between two dispatcher rounds of one worker: while writes stream in, the
 * dispatcher follows up on its own (dispatch-events.ts), and its barrier, which holds
 * writers of events back for a moment, must not run back to back
 */
export const DISPATCH_GAP_MS = 10;

/**
 * The pause before a dispatch barrier is tried again after giving up (number `inARow` in a row): a
 * writer of the outbox held it past the barrier's 50 ms. 50 ms, doubled each time up to 1 s, so that
 * a writer holding the outbox for long is not stalled by a barrier attempt after every 50 ms.
 */
export function barrierBackOffMs(inARow: number): number {
  return Math.min(1_000, 50 * 2 ** Math.min(10, Math.max(0, inARow - 1)));
}

/**
 * When the dispatcher tries again after a setback: its barrier gave up to a long writer
 * of events, or a round failed (the database away for a moment). Writers stay silent
 * while the dispatcher is behind, so nothing announces the events it left: it must look
 * again on its own, soon, whatever the poll interval (which may be minutes where the
 * worker listens): the barrier's back-off, never later than the poll.
 */
export function setbackRetryMs(config: Pick<WebhookConfig, 'pollIntervalMs'>, inARow: number): number {
  return Math.min(config.pollIntervalMs, barrierBackOffMs(inARow));
}

/** a lease outlives the request's time-out, so only a dead worker loses one */
export function leaseMsFor(config: WebhookConfig): number {
  return config.timeoutMs * 2 + 1_000;
}

/**
 * A run's leases are renewed with a record once a quarter of the lease has passed;
 * one attempt lasts at most timeoutMs, so a quarter + timeoutMs + a record stays
 * well inside the lease of 2 × timeoutMs + 1 s.
 */
export function renewDue(msSinceRenewal: number, leaseMs: number): boolean {
  return msSinceRenewal >= leaseMs / 4;
}

/**
 * Delay before retry number `attempt` (1 = after the first failure): exponential
 * from retryBaseMs, capped, with "equal jitter" (half fixed, half random) so that
 * a receiver coming back is not hit by every queued delivery at once.
 */
export function retryDelayMs(config: WebhookConfig, attempt: number, random: () => number = Math.random): number {
  const exp = Math.min(config.retryMaxDelayMs, config.retryBaseMs * 2 ** Math.min(30, Math.max(0, attempt - 1)));
  return Math.round(exp / 2 + (exp / 2) * random());
}

export type DeliveryStatus = 'succeeded' | 'pending' | 'failed';

/**
 * What an attempt makes of its delivery: succeeded; pending again after the
 * back-off; or failed once the next try would fall outside the retry window
 * (counted from retryFrom: the first attempt, or the last resend).
 */
export function verdict(
  config: WebhookConfig,
  d: { attempt: number; retryFrom: Date },
  outcome: Pick<AttemptOutcome, 'error'>,
  now: number = Date.now(),
): { status: DeliveryStatus; retryInMs: number } {
  if (outcome.error === null) return { status: 'succeeded', retryInMs: 0 };
  const delay = retryDelayMs(config, d.attempt);
  if (now + delay - d.retryFrom.getTime() > config.retryWindowMs) return { status: 'failed', retryInMs: 0 };
  return { status: 'pending', retryInMs: delay };
}

/** whether a run goes on after this outcome: a success, more claimed, and a worker not stopping */
export function runContinues(outcome: Pick<AttemptOutcome, 'error'>, following: number, keepGoing: () => boolean): boolean {
  return outcome.error === null && following > 0 && keepGoing();
}
