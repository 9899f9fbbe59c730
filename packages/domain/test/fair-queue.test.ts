import { describe, expect, it } from 'vitest';
import { FairQueue } from '../src/rendering/fair-queue.js';
import { renderLimits, renderLimitsFromEnv } from '../src/rendering/render-limits.js';

/** Serves `slots` slots from the queue until it is empty, finishing the oldest running job each time a slot is needed. */
function serve(queue: FairQueue<string>, slots: number): string[] {
  const order: string[] = [];
  const running: { key: string; item: string }[] = [];
  for (;;) {
    while (running.length < slots) {
      const next = queue.take();
      if (!next) break;
      order.push(next.item);
      running.push(next);
    }
    const done = running.shift();
    if (!done) return order;
    queue.done(done.key);
  }
}

describe('render work is shared fairly between environments', () => {
  it('one environment never holds more than its share of the slots, however many jobs it has waiting', () => {
    const q = new FairQueue<string>(2);
    for (let i = 1; i <= 5; i += 1) q.push('a', `a${i}`);
    expect(q.take()?.item).toBe('a1');
    expect(q.take()?.item).toBe('a2');
    // a third slot is free, but the environment holds its share
    expect(q.take()).toBeNull();
    expect(q.runningOf('a')).toBe(2);
    q.done('a');
    expect(q.take()?.item).toBe('a3');
  });

  it("another environment's job starts at the next free slot, ahead of the busy environment's next: it waits for one job at most", () => {
    const q = new FairQueue<string>(2);
    for (let i = 1; i <= 4; i += 1) q.push('heavy', `heavy${i}`);
    const first = q.take();
    const second = q.take();
    expect([first?.item, second?.item]).toEqual(['heavy1', 'heavy2']);
    q.push('light', 'light1');
    // with a third slot free it starts at once
    expect(q.take()?.item).toBe('light1');
    q.done('light');
    // with every slot taken, it is the next to start when one heavy job ends
    q.push('light', 'light2');
    q.done('heavy');
    expect(q.take()?.item).toBe('light2');
  });

  it('a free slot goes to the environment running the fewest jobs, and among equals to the one waiting longest', () => {
    const q = new FairQueue<string>(3);
    for (const job of ['a1', 'a2', 'a3', 'a4']) q.push('a', job);
    for (const job of ['b1', 'b2']) q.push('b', job);
    q.push('c', 'c1');
    expect(serve(q, 3)).toEqual(['a1', 'b1', 'c1', 'a2', 'b2', 'a3', 'a4']);
  });

  it("`first` puts a job at the front of its own environment's queue, not ahead of another environment's turn", () => {
    const q = new FairQueue<string>(1);
    q.push('a', 'a-thumbnail-1');
    q.push('a', 'a-thumbnail-2');
    q.push('b', 'b-thumbnail');
    q.push('a', 'a-invoice', true);
    expect(serve(q, 1)).toEqual(['a-invoice', 'b-thumbnail', 'a-thumbnail-1', 'a-thumbnail-2']);
  });

  it('a job given up while it waits leaves the queue; drain answers every waiting job once', () => {
    const q = new FairQueue<string>(1);
    q.push('a', 'a1');
    q.push('a', 'a2');
    q.push('b', 'b1');
    expect(q.remove('a', 'a2')).toBe(true);
    expect(q.remove('a', 'a2')).toBe(false);
    expect(q.waiting).toBe(2);
    expect(q.drain().sort()).toEqual(['a1', 'b1']);
    expect(q.waiting).toBe(0);
  });

  it('the limits: by default an environment holds all but one render process; RENDER_* settings are positive integers', () => {
    expect(renderLimits()).toMatchObject({ workers: 3, perEnvironment: 2 });
    expect(renderLimits({ workers: 5 }).perEnvironment).toBe(4);
    expect(renderLimits({ workers: 1 }).perEnvironment).toBe(1);
    expect(renderLimits({ workers: 2, perEnvironment: 9 }).perEnvironment).toBe(2);
    expect(renderLimitsFromEnv({ RENDER_WORKERS: '4', RENDER_TIMEOUT_MS: '5000' })).toMatchObject({
      workers: 4,
      perEnvironment: 3,
      timeoutMs: 5000,
    });
    expect(() => renderLimitsFromEnv({ RENDER_MEMORY_MB: '-1' })).toThrow(/RENDER_MEMORY_MB must be a positive integer/);
  });
});
