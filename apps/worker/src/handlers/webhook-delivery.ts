import { deliverRun } from '@bo/domain/webhooks/deliver-run';
import { claimDeliveries } from '@bo/domain/webhooks/delivery-claims';
import { DISPATCH_BATCH, leaseMsFor } from '@bo/domain/webhooks/delivery-policy';
import { dispatchEvents } from '@bo/domain/webhooks/dispatch-events';
import { DEFAULT_WEBHOOK_CONFIG } from '@bo/domain/webhooks/webhook-config';
import type { WorkerLoop } from '../handlers.js';
import { HttpWebhookTransport } from '../webhooks/http-transport.js';

/**
 * Webhook delivery runs as a loop rather than as pg-boss jobs: it polls its own
 * tables every pollIntervalMs (new events are fanned out, due deliveries are
 * claimed with a lease) and wakes at once when a delivery ends, so that the
 * next event of that subscription follows without waiting for a poll. Each
 * claimed delivery starts a run of its subscription (deliverRun: order, retries
 * and leases are the domain's run policy); this loop only decides how many run
 * at once. stop() sends nothing new and waits for the deliveries in flight.
 */
export const webhookDeliveryLoop: WorkerLoop = {
  name: 'webhooks.delivery',
  start(ctx) {
    const config = ctx.webhooks ?? DEFAULT_WEBHOOK_CONFIG;
    const leaseMs = leaseMsFor(config);
    const inFlight = new Set<Promise<unknown>>();
    const transport = new HttpWebhookTransport();
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
    // a run in flight ends when its environment goes into maintenance; the rest stays pending
    const inMaintenance = async (environment: string) => Boolean(await ctx.maintenance?.forEnvironment(environment));
    const runOptions = {
      prisma: ctx.prisma,
      config,
      transport,
      keepGoing: () => !stopping,
      paused: (environment: string) => inMaintenance(environment),
    };

    const run = async () => {
      while (!stopping) {
        let busy = false;
        try {
          // only a full batch means more is waiting: a few new events are claimed just below
          // (or picked up by the run of a subscription in flight), so the loop naps rather
          // than spinning on the dispatcher's statements while events trickle in
          if ((await dispatchEvents(ctx.prisma)) >= DISPATCH_BATCH) busy = true;
          const free = config.concurrency - inFlight.size;
          const claimed = stopping ? [] : await claimDeliveries(ctx.prisma, free, leaseMs);
          // (an environment in maintenance is not claimed at all: see claimDeliveries)
          for (const d of claimed) {
            busy = true;
            const p: Promise<unknown> = deliverRun(runOptions, d)
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
        transport.close();
      },
    };
  },
};
