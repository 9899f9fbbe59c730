import {
  attemptDelivery,
  type ClaimedDelivery,
  claimDeliveries,
  claimRunOfSubscription,
  DeliveryConnections,
  type RunRest,
  recordDelivery,
  runContinues,
} from '@bo/domain/webhooks/deliver-webhook';
import { dispatchEvents } from '@bo/domain/webhooks/dispatch-events';
import { DEFAULT_WEBHOOK_CONFIG } from '@bo/domain/webhooks/webhook-config';
import type { WorkerLoop } from '../handlers.js';

/**
 * Webhook delivery runs as a loop rather than as pg-boss jobs: it polls its own
 * tables every pollIntervalMs (new events are fanned out, due deliveries are
 * claimed with a lease) and wakes at once when a delivery ends, so that the
 * next event of that subscription follows without waiting for a poll.
 * stop() sends nothing new and waits for the deliveries in flight.
 */
/** deliveries of one subscription claimed at once (a lease each, renewed at every step) */
const RUN_SIZE = 100;
/** events fanned out per dispatcher round */
const DISPATCH_BATCH = 1000;

export const webhookDeliveryLoop: WorkerLoop = {
  name: 'webhooks.delivery',
  start(ctx) {
    const config = ctx.webhooks ?? DEFAULT_WEBHOOK_CONFIG;
    // a lease outlives the request's time-out, so only a dead worker loses one
    const leaseMs = config.timeoutMs * 2 + 1_000;
    const inFlight = new Set<Promise<unknown>>();
    const connections = new DeliveryConnections();
    let stopping = false;
    let wake: (() => void) | null = null;
    const nap = (ms: number) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(done, ms);
        function done() {
          clearTimeout(timer);
          wake = null;
          resolve();
        }
        wake = done;
      });

    // One subscription's deliveries, one after another, until one fails or none is due.
    // After a success the rest of its backlog is claimed in runs of up to RUN_SIZE under
    // one claim. The record of an attempt (one statement) overlaps the next POST: sends
    // stay strictly one after another, records are written in order, one at a time, and
    // the run's next claim waits for the last record. A crash before a record is written
    // only means that delivery is sent again (at least once, the same X-Webhook-Id).
    // The run's leases are renewed with a record once a quarter of the lease has passed;
    // one attempt lasts at most timeoutMs, so a quarter + timeoutMs + a record stays well
    // inside the lease of 2 × timeoutMs + 1 s.
    const drain = async (first: ClaimedDelivery) => {
      let run: ClaimedDelivery[] = [first];
      let recording: Promise<void> = Promise.resolve();
      try {
        while (run.length > 0) {
          let renewedAt = performance.now();
          for (let i = 0; i < run.length; i += 1) {
            const d = run[i] as ClaimedDelivery;
            const renew = performance.now() - renewedAt >= leaseMs / 4;
            if (renew) renewedAt = performance.now();
            const rest: RunRest = {
              following: run.slice(i + 1),
              leaseMs,
              renew,
              connections,
              keepGoing: () => !stopping,
            };
            const outcome = await attemptDelivery(config, d, connections);
            const continues = runContinues(outcome, rest);
            await recording;
            recording = recordDelivery(ctx.prisma, config, d, outcome, continues, rest);
            // handled where it is awaited (next step or the end); never an unhandled rejection meanwhile
            recording.catch(() => {});
            const next = rest.following[0];
            if (continues && next) next.attempt += 1;
            if (!continues) break;
          }
          await recording;
          if (stopping || (await inMaintenance(first))) return;
          run = await claimRunOfSubscription(ctx.prisma, first.subscriptionId, leaseMs, RUN_SIZE);
        }
      } finally {
        // a stopping worker (SIGTERM) waits for this: the delivery in flight is recorded
        await recording;
      }
    };

    const inMaintenance = async (d: ClaimedDelivery) => Boolean(await ctx.maintenance?.forEnvironment(d.environment));

    const run = async () => {
      while (!stopping) {
        let busy = false;
        try {
          // only a full batch means more is waiting: a few new events are claimed just below
          // (or picked up by the run of a subscription in flight), so the loop naps rather
          // than spinning on the dispatcher's statements while events trickle in
          if ((await dispatchEvents(ctx.prisma, { batchSize: DISPATCH_BATCH })) >= DISPATCH_BATCH) busy = true;
          const free = config.concurrency - inFlight.size;
          const claimed = stopping ? [] : await claimDeliveries(ctx.prisma, free, leaseMs);
          // (an environment in maintenance is not claimed at all: see claimDeliveries)
          for (const d of claimed) {
            busy = true;
            const p: Promise<unknown> = drain(d)
              .catch((err: unknown) => ctx.log.error({ err, delivery: d.id }, 'recording a webhook attempt failed'))
              .finally(() => {
                inFlight.delete(p);
                wake?.();
              });
            inFlight.add(p);
          }
        } catch (err) {
          ctx.log.error({ err }, 'webhook loop error; retrying');
        }
        if (stopping) break;
        if (!busy || inFlight.size >= config.concurrency) await nap(config.pollIntervalMs);
      }
    };
    const loop = run();
    return {
      async stop() {
        stopping = true;
        wake?.();
        await loop;
        await Promise.allSettled([...inFlight]);
        connections.close();
      },
    };
  },
};
