/**
 * The fair share of a process's work between environments (issue 31: the share must cover CPU
 * time, not only database connections).
 *
 * A process is one event loop: every request in flight takes turns on it, so an environment with
 * 32 requests in flight had 32 turns for each turn of another environment's one request (that
 * environment's p99 went from 8 to 138 ms: tests/fair-share-cpu.test.ts). So a process works on a
 * bounded number of requests of one environment at once; the environment's other requests wait in
 * its own queue, first come first served, bounded in length and in time.
 *
 * How many depends on whether the process is shared at the moment:
 * - `contended` (REQUESTS_PER_ENVIRONMENT, default 1) while other environments have requests in
 *   the process too, and for `lingerMs` after the last time they did: each environment then has
 *   as many turns of the event loop as any other, and within its request an environment with a
 *   backlog lets the others run between slices of its work (yieldsTurns), so another environment's
 *   read waits for a slice of a neighbour's page, not the whole page;
 * - `alone` (REQUESTS_PER_ENVIRONMENT_ALONE, default 8) otherwise: an environment alone on the
 *   process keeps the database's time and the event loop's overlapped (a single request in flight
 *   leaves the process idle while PostgreSQL works).
 *
 * The queues are per environment and never shared, so no environment waits behind another's; an
 * environment that has none running is admitted at once. With no contention a request costs a Map
 * lookup and a counter.
 */

interface Lane {
  running: number;
  /** requests of this environment waiting for one of its places, first come first served */
  waiting: Waiter[];
  /**
   * the lane's one timer, armed for its oldest waiter's deadline while anyone waits (a timer per
   * waiter cost every waiting request a timer's insertion and removal)
   */
  timer: ReturnType<typeof setTimeout> | null;
}

interface Waiter {
  admit(): void;
  refuse(err: ShareRefused): void;
  /** when it will have waited too long (performance.now(), the timers' clock) */
  deadline: number;
}

export type ShareRefusal = 'queue full' | 'waited too long';

export class ShareRefused extends Error {
  constructor(readonly reason: ShareRefusal) {
    super(reason);
  }
}

export interface RequestShareOptions {
  /** requests of one environment worked on at once while other environments have requests in the process */
  contended: number;
  /** requests of one environment worked on at once while it is the only one (at least `contended`) */
  alone: number;
  /** requests of one environment that may wait beyond those */
  maxWaiting: number;
  /** how long a request may wait for its place */
  maxWaitMs: number;
  /** the process counts as shared this long after two environments last had requests in it together */
  lingerMs?: number;
  /** milliseconds, monotonic (tests) */
  now?: () => number;
}

export class RequestShare {
  /** one lane per environment seen by this process: kept (a counter and an empty array), so the fast path allocates nothing */
  private readonly lanes = new Map<string, Lane>();
  /** environments with a request running in this process */
  private activeLanes = 0;
  /** until when the process counts as shared between environments */
  private sharedUntil = Number.NEGATIVE_INFINITY;
  private readonly contended: number;
  private readonly alone: number;
  private readonly lingerMs: number;
  private readonly now: () => number;
  /** requests so far that had to wait (for the metrics) */
  waits = 0;

  constructor(private readonly opts: RequestShareOptions) {
    this.contended = Math.max(1, opts.contended);
    this.alone = Math.max(this.contended, opts.alone);
    this.lingerMs = opts.lingerMs ?? 1_000;
    this.now = opts.now ?? (() => performance.now());
  }

  /** true: counted in the environment's share now (call leave() once, when done); false: its places are taken, call wait() */
  tryEnter(environment: string): boolean {
    let lane = this.lanes.get(environment);
    if (lane === undefined) {
      lane = { running: 0, waiting: [], timer: null };
      this.lanes.set(environment, lane);
    }
    if (lane.running === 0) {
      // another environment has requests in the process: it is shared from now on (for a while)
      if (this.activeLanes > 0) this.sharedUntil = this.now() + this.lingerMs;
      this.activeLanes += 1;
      lane.running = 1;
      return true;
    }
    if (lane.running < this.limit()) {
      lane.running += 1;
      return true;
    }
    return false;
  }

  /**
   * Waits for a place of the environment (after tryEnter answered false). `gone` receives a
   * function that ends the wait when the client goes away (the promise then never settles: there
   * is nobody to answer); it answers false when the place was given already.
   * Rejects with ShareRefused when the queue is full or the wait was too long.
   */
  wait(environment: string, gone: (drop: () => boolean) => void): Promise<void> {
    const lane = this.lanes.get(environment) as Lane;
    if (lane.waiting.length >= this.opts.maxWaiting) return Promise.reject(new ShareRefused('queue full'));
    this.waits += 1;
    return new Promise((admit, refuse) => {
      const waiter: Waiter = { admit, refuse, deadline: performance.now() + this.opts.maxWaitMs };
      lane.waiting.push(waiter);
      if (lane.timer === null) this.arm(lane, this.opts.maxWaitMs);
      gone(() => {
        const i = lane.waiting.indexOf(waiter);
        if (i === -1) return false;
        lane.waiting.splice(i, 1);
        return true;
      });
    });
  }

  /** refuses the lane's waiters past their deadline, then waits for the next one's (none waiting: the timer stops) */
  private arm(lane: Lane, ms: number): void {
    lane.timer = setTimeout(() => {
      lane.timer = null;
      const now = performance.now();
      while (lane.waiting.length > 0 && (lane.waiting[0] as Waiter).deadline <= now) {
        (lane.waiting.shift() as Waiter).refuse(new ShareRefused('waited too long'));
      }
      const next = lane.waiting[0];
      if (next) this.arm(lane, Math.max(1, next.deadline - now));
    }, ms);
    lane.timer.unref();
  }

  /** one request of the environment is done: its place goes to the environment's next waiting requests, if any */
  leave(environment: string): void {
    const lane = this.lanes.get(environment);
    if (lane === undefined || lane.running === 0) return;
    lane.running -= 1;
    if (lane.waiting.length > 0) {
      // while the process is shared the environment keeps one place less than alone: usually one goes on
      const limit = this.limit();
      while (lane.waiting.length > 0 && lane.running < limit) {
        lane.running += 1;
        (lane.waiting.shift() as Waiter).admit();
      }
    }
    if (lane.running === 0) this.activeLanes -= 1;
  }

  /** another environment has requests in the process, or had a moment ago */
  shared(): boolean {
    return this.activeLanes > 1 || this.now() < this.sharedUntil;
  }

  /**
   * Whether a request of the environment should let the event loop run other work between slices
   * of its own (a page's items turned into JSON): its environment has requests waiting for a place
   * while the process is shared. An environment that has no backlog, or is alone, runs straight
   * through. So at a slice's end another environment's request (its answer from the database, its
   * next stage) runs before the backlogged environment's next slice: its read waits for one slice,
   * not for a whole page's work (tests/fair-share-cpu.test.ts: its p99 under the flood 2.3× its
   * quiet value without, 1.4× with).
   */
  yieldsTurns(environment: string): boolean {
    const lane = this.lanes.get(environment);
    if (lane === undefined || lane.waiting.length === 0) return false;
    return this.activeLanes > 1 || this.now() < this.sharedUntil;
  }

  /** requests of the environment being worked on, and waiting (for tests and the metrics) */
  load(environment: string): { running: number; waiting: number } {
    const lane = this.lanes.get(environment);
    return { running: lane?.running ?? 0, waiting: lane?.waiting.length ?? 0 };
  }

  /** how many requests of an environment that has some running may run now */
  private limit(): number {
    // another environment has requests running now (the lane asking is one of the active ones)
    if (this.activeLanes > 1) {
      this.sharedUntil = this.now() + this.lingerMs;
      return this.contended;
    }
    if (this.sharedUntil === Number.NEGATIVE_INFINITY) return this.alone;
    // or had a moment ago
    if (this.now() < this.sharedUntil) return this.contended;
    this.sharedUntil = Number.NEGATIVE_INFINITY;
    return this.alone;
  }
}
