interface Waiting<T> {
  item: T;
  /** arrival order, over every environment */
  seq: number;
}

/**
 * Waiting work, one queue per environment (any key), shared fairly over a
 * number of slots. A free slot goes to the environment that holds the fewest
 * running jobs; among those, round-robin: to the one whose last job started
 * longest ago (one never served first, by arrival). No environment holds more
 * than `perKey` slots at once. So one environment's many heavy jobs never take
 * every slot, and another environment's job starts at the next free slot,
 * before the busy environment's next one: it waits for one job at most.
 */
export class FairQueue<T> {
  private readonly queues = new Map<string, Waiting<T>[]>();
  private readonly running = new Map<string, number>();
  /** when each environment's last job started (in takes) */
  private readonly served = new Map<string, number>();
  private seq = 0;
  private takes = 0;

  constructor(private readonly perKey: number) {}

  get waiting(): number {
    let n = 0;
    for (const q of this.queues.values()) n += q.length;
    return n;
  }

  waitingOf(key: string): number {
    return this.queues.get(key)?.length ?? 0;
  }

  runningOf(key: string): number {
    return this.running.get(key) ?? 0;
  }

  /** adds an item at the end of its environment's queue, or at its front (`first`) */
  push(key: string, item: T, first = false): void {
    let q = this.queues.get(key);
    if (!q) {
      q = [];
      this.queues.set(key, q);
    }
    const entry = { item, seq: this.seq++ };
    if (first) q.unshift(entry);
    else q.push(entry);
  }

  /** removes an item still waiting (its caller gave up); false when it is no longer there */
  remove(key: string, item: T): boolean {
    const q = this.queues.get(key);
    const i = q ? q.findIndex((w) => w.item === item) : -1;
    if (!q || i < 0) return false;
    q.splice(i, 1);
    if (q.length === 0) this.queues.delete(key);
    return true;
  }

  /** the next item by fair share, counted as running until `done(key)`; null when nothing may start */
  take(): { key: string; item: T } | null {
    let best: { key: string; running: number; served: number; oldest: number } | null = null;
    for (const [key, q] of this.queues) {
      const running = this.runningOf(key);
      if (running >= this.perKey) continue;
      const served = this.served.get(key) ?? -1;
      let oldest = Number.POSITIVE_INFINITY;
      for (const w of q) oldest = Math.min(oldest, w.seq);
      const before =
        !best ||
        running < best.running ||
        (running === best.running && (served < best.served || (served === best.served && oldest < best.oldest)));
      if (before) best = { key, running, served, oldest };
    }
    if (!best) return null;
    const q = this.queues.get(best.key) as Waiting<T>[];
    const next = q.shift() as Waiting<T>;
    if (q.length === 0) this.queues.delete(best.key);
    this.running.set(best.key, best.running + 1);
    this.served.set(best.key, this.takes++);
    if (this.served.size > 10_000) this.forgetIdle();
    return { key: best.key, item: next.item };
  }

  /** removes and answers every waiting item (the pool closes) */
  drain(): T[] {
    const all = [...this.queues.values()].flat().sort((a, b) => a.seq - b.seq);
    this.queues.clear();
    return all.map((w) => w.item);
  }

  /** environments with nothing waiting or running start afresh (never served) */
  private forgetIdle(): void {
    for (const key of this.served.keys()) if (!this.queues.has(key) && !this.running.has(key)) this.served.delete(key);
  }

  /** a job taken from `key` finished */
  done(key: string): void {
    const r = this.runningOf(key) - 1;
    if (r > 0) this.running.set(key, r);
    else this.running.delete(key);
  }
}
