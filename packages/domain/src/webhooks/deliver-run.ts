import type { PrismaClient } from '@bo/db';
import { type AttemptOutcome, attemptDelivery } from './attempt-delivery.js';
import { type ClaimedDelivery, claimRunOfSubscription } from './delivery-claims.js';
import { leaseMsFor, RUN_SIZE, renewDue, runContinues } from './delivery-policy.js';
import { recordAttempt } from './record-attempt.js';
import type { WebhookConfig } from './webhook-config.js';
import type { WebhookTransport } from './webhook-transport.js';

export interface DeliverRunOptions {
  prisma: PrismaClient;
  config: WebhookConfig;
  transport: WebhookTransport;
  /** false once the worker is stopping: the run ends after the delivery in flight */
  keepGoing(): boolean;
  /** true while the environment is in scheduled maintenance: the run ends, the rest stays pending */
  paused?(environment: string): Promise<boolean>;
  /** a failed delivery was recorded to be tried again in `ms`: the worker looks again then (no notification announces a retry) */
  retryScheduled?(ms: number): void;
  /** told every attempt as it ends (the worker's metrics: failures, and the lag of a delivered event) */
  attempted?(delivery: ClaimedDelivery, outcome: AttemptOutcome): void;
}

/**
 * One subscription's deliveries, one after another, from its claimed head until
 * one fails or none is due. After a success the rest of its backlog is claimed
 * in runs of up to RUN_SIZE under one claim. The record of an attempt (one
 * statement) overlaps the next POST: sends stay strictly one after another,
 * records are written in order, one at a time, and the run's next claim waits
 * for the last record. A crash before a record is written only means that
 * delivery is sent again (at least once, the same X-Webhook-Id). A stopping
 * worker waits for this: the delivery in flight is recorded.
 */
export async function deliverRun(opts: DeliverRunOptions, first: ClaimedDelivery): Promise<void> {
  const { prisma, config } = opts;
  const leaseMs = leaseMsFor(config);
  let run: ClaimedDelivery[] = [first];
  let recording: Promise<void> = Promise.resolve();
  try {
    while (run.length > 0) {
      let renewedAt = performance.now();
      for (let i = 0; i < run.length; i += 1) {
        const d = run[i] as ClaimedDelivery;
        const renew = renewDue(performance.now() - renewedAt, leaseMs);
        if (renew) renewedAt = performance.now();
        const following = run.slice(i + 1);
        const outcome = await attemptDelivery(config, d, opts.transport);
        opts.attempted?.(d, outcome);
        const continues = runContinues(outcome, following.length, opts.keepGoing);
        await recording;
        recording = recordAttempt({ prisma, config, delivery: d, outcome, run: { following, continues, renew, leaseMs } }).then(
          (next) => {
            if (next.status === 'pending') opts.retryScheduled?.(next.retryInMs);
          },
        );
        // handled where it is awaited (next step or the end); never an unhandled rejection meanwhile
        recording.catch(() => {});
        const next = following[0];
        if (continues && next) next.attempt += 1;
        if (!continues) break;
      }
      await recording;
      if (!opts.keepGoing() || (await opts.paused?.(first.environment))) return;
      run = await claimRunOfSubscription(prisma, first.subscriptionId, leaseMs, RUN_SIZE);
    }
  } finally {
    await recording;
  }
}
