import { deliverRun } from '@bo/domain/webhooks/deliver-run';
import { placementOf } from '@bo/db';
import { MaintenanceReader } from '@bo/domain/maintenance/maintenance';
import { type ClaimOptions, claimDeliveries } from '@bo/domain/webhooks/delivery-claims';
import { DISPATCH_GAP_MS, leaseMsFor, setbackRetryMs, WAKE_CHANNELS } from '@bo/domain/webhooks/delivery-policy';
import { dispatchEvents } from '@bo/domain/webhooks/dispatch-events';
import { DEFAULT_WEBHOOK_CONFIG } from '@bo/domain/webhooks/webhook-config';
import { recordWebhookAttempt } from '@bo/runtime';
import type { WorkerLoop } from '../handlers.js';
import { HttpWebhookTransport } from '../webhooks/http-transport.js';

/** the shortest step of a nap that watches the listener (a poll interval of 0 must not spin) */
const MIN_STEP_MS = 10;

/**
 * Webhook delivery runs as a loop rather than as pg-boss jobs. A round fans new
 * events out into deliveries and claims due deliveries with a lease; each claimed
 * delivery starts a run of its subscription (deliverRun: order, retries and leases
 * are the domain's run policy); this loop only decides when to look and how many
 * run at once. It looks again at once when
 * - a committed event or a resent delivery is announced (LISTEN, see WAKE_CHANNELS;
 *   writers announce events only when they find the dispatcher idle),
 * - its dispatcher has to follow up (a full batch, or writers that came while it
 *   moved the cursor and so stayed silent), at most every DISPATCH_GAP_MS,
 * - a run ends (the next event of that subscription follows without waiting),
 * - a retry this worker scheduled falls due,
 * and otherwise polls: every pollIntervalMs while it hears no notifications (the
 * embedded database, DB_LISTEN=false, the listener's connection down), every
 * listeningPollIntervalMs while it does (what nothing announces: another worker's
 * lapsed lease, the end of a maintenance window). After a setback (its barrier gave
 * up to a long writer, or a round failed) it looks again on a short back-off of its
 * own (setbackRetryMs), never at the poll: writers stay silent while it is behind.
 * A wake-up during a round is kept for after it, so nothing announced meanwhile
 * waits for a poll.
 * stop() sends nothing new and waits for the deliveries in flight.
 */
export const webhookDeliveryLoop: WorkerLoop = {
  name: 'webhooks.delivery',
  start(ctx, { notifications }) {
    const config = ctx.webhooks ?? DEFAULT_WEBHOOK_CONFIG;
    const leaseMs = leaseMsFor(config);
    const inFlight = new Set<Promise<unknown>>();
    const transport = new HttpWebhookTransport();
    let stopping = false;
    /** something to look at was announced since the current round began */
    let poked = false;
    let wake: (() => void) | null = null;
    const poke = () => {
      poked = true;
      wake?.();
    };
    const listening = () => notifications?.listening === true;
    // while listening, the nap checks the listener every pollIntervalMs: once it is down,
    // the worker is back to polling at that pace (and when it is back it says "look again")
    const nap = (ms: number, whileListening: boolean) =>
      new Promise<void>((resolve) => {
        if (poked || stopping) return resolve();
        const until = performance.now() + ms;
        let timer: NodeJS.Timeout | undefined;
        const done = () => {
          clearTimeout(timer);
          wake = null;
          resolve();
        };
        const step = () => {
          const left = until - performance.now();
          if (left <= 0 || (whileListening && !listening())) return done();
          timer = setTimeout(step, whileListening ? Math.min(left, Math.max(MIN_STEP_MS, config.pollIntervalMs)) : left);
        };
        wake = done;
        step();
      });
    const unsubscribe = notifications ? WAKE_CHANNELS.map((channel) => notifications.on(channel, poke)) : [];
    // no notification announces a retry: the worker that recorded the failure looks again when it is due
    const retryTimers = new Set<NodeJS.Timeout>();
    const retryScheduled = (ms: number) => {
      if (stopping) return;
      const timer = setTimeout(() => {
        retryTimers.delete(timer);
        poke();
      }, ms);
      timer.unref();
      retryTimers.add(timer);
    };
    // a cluster other than the first (DATABASE_URLS) holds no maintenance windows: its claims leave out
    // the environments the first one says are in maintenance (read at most every 2 s, as the doors do)
    const placement = placementOf(ctx.prisma);
    const windows =
      placement && placement.global.prisma !== ctx.prisma
        ? ctx.maintenance?.all
          ? { all: ctx.maintenance.all.bind(ctx.maintenance) }
          : new MaintenanceReader(placement.global.prisma)
        : null;
    const claimOptions = async (): Promise<ClaimOptions | undefined> =>
      windows ? { maintenance: (await windows.all()).map((w) => w.scope) } : undefined;
    // a run in flight ends when its environment goes into maintenance; the rest stays pending
    const inMaintenance = async (environment: string) => Boolean(await ctx.maintenance?.forEnvironment(environment));
    const runOptions = {
      prisma: ctx.prisma,
      config,
      transport,
      keepGoing: () => !stopping,
      paused: (environment: string) => inMaintenance(environment),
      retryScheduled,
      attempted: (d: { occurredAt: Date }, outcome: { error: string | null }) =>
        recordWebhookAttempt(outcome.error === null, d.occurredAt),
    };

    const run = async () => {
      // the next dispatch goes through the barrier: the last one moved the cursor while a writer
      // may have found it behind (and so did not notify), or its barrier gave up (dispatch-events.ts)
      let barrier = false;
      // a dispatch is due but was left for DISPATCH_GAP_MS after the last one
      let owed = false;
      let lastDispatch = Number.NEGATIVE_INFINITY;
      // setbacks in a row (a barrier that gave up, a failed round): the retry backs off with them
      let setbacks = 0;
      const dispatchIn = () => Math.max(0, lastDispatch + DISPATCH_GAP_MS - performance.now());
      while (!stopping) {
        poked = false;
        let busy = false;
        let soon = false;
        try {
          if (dispatchIn() === 0) {
            lastDispatch = performance.now();
            const dispatched = await dispatchEvents(ctx.prisma, { barrier });
            barrier = dispatched.followUp || dispatched.gaveUp;
            // only a full batch, or writers that may not have notified, mean more is waiting:
            // a few new events are claimed just below (or picked up by the run of a
            // subscription in flight), so the loop naps rather than spinning on the dispatcher
            owed = dispatched.followUp;
            // the barrier gave up (a long writer): it is tried again after a short back-off
            if (dispatched.gaveUp) soon = true;
          } else owed = true;
          const free = config.concurrency - inFlight.size;
          const claimed = stopping ? [] : await claimDeliveries(ctx.prisma, free, leaseMs, await claimOptions());
          // (an environment in maintenance is not claimed at all: see claimDeliveries)
          for (const d of claimed) {
            busy = true;
            const p: Promise<unknown> = deliverRun(runOptions, d)
              .catch((err: unknown) => ctx.log.error({ err, delivery: d.id }, 'recording a webhook attempt failed'))
              .finally(() => {
                inFlight.delete(p);
                poke();
              });
            inFlight.add(p);
          }
        } catch (err) {
          ctx.log.error({ err }, 'webhook loop error; retrying');
          barrier = true;
          soon = true;
        }
        setbacks = soon ? setbacks + 1 : 0;
        if (stopping) break;
        if (soon) await nap(setbackRetryMs(config, setbacks), false);
        else if (busy && inFlight.size < config.concurrency) continue;
        else if (owed) await nap(dispatchIn(), false);
        else {
          const heard = listening();
          await nap(heard ? config.listeningPollIntervalMs : config.pollIntervalMs, heard);
        }
      }
    };
    const loop = run();
    return {
      async stop() {
        stopping = true;
        for (const off of unsubscribe) off();
        for (const t of retryTimers) clearTimeout(t);
        retryTimers.clear();
        wake?.();
        await loop;
        await Promise.allSettled([...inFlight]);
        transport.close();
      },
    };
  },
};
