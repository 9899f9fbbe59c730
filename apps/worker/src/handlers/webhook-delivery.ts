import {
  type ClaimedDelivery,
  claimDeliveries,
  claimNextOfSubscription,
  sendDelivery,
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
export const webhookDeliveryLoop: WorkerLoop = {
  name: 'webhooks.delivery',
  start(ctx) {
    const config = ctx.webhooks ?? DEFAULT_WEBHOOK_CONFIG;
    // a lease outlives the request's time-out, so only a dead worker loses one
    const leaseMs = config.timeoutMs * 2 + 1_000;
    const inFlight = new Set<Promise<unknown>>();
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

    // one subscription's deliveries, one after another, until one fails or none is due
    const drain = async (first: ClaimedDelivery) => {
      let d: ClaimedDelivery | null = first;
      while (d) {
        const result = await sendDelivery(ctx.prisma, config, d);
        if (result.error !== null || stopping) return;
        d = await claimNextOfSubscription(ctx.prisma, d.subscriptionId, leaseMs);
      }
    };

    const run = async () => {
      while (!stopping) {
        let busy = false;
        try {
          if ((await dispatchEvents(ctx.prisma)) > 0) busy = true;
          const free = config.concurrency - inFlight.size;
          const claimed = stopping ? [] : await claimDeliveries(ctx.prisma, free, leaseMs);
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
      },
    };
  },
};
