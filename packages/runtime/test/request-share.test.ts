import { describe, expect, it } from 'vitest';
import { RequestShare, ShareRefused } from '../src/request-share.js';

/** The fair share of a process between environments: its rules, with a clock of the test's own. */
function share(now: { ms: number }, opts: Partial<ConstructorParameters<typeof RequestShare>[0]> = {}) {
  return new RequestShare({
    contended: 1,
    alone: 4,
    maxWaiting: 3,
    maxWaitMs: 60_000,
    lingerMs: 1_000,
    now: () => now.ms,
    ...opts,
  });
}

const tick = () => new Promise((r) => setImmediate(r));

describe('the fair share of a process between environments', () => {
  it('an environment alone in the process has its `alone` places; more wait', () => {
    const s = share({ ms: 0 });
    expect([1, 2, 3, 4, 5].map(() => s.tryEnter('a'))).toEqual([true, true, true, true, false]);
    expect(s.load('a')).toEqual({ running: 4, waiting: 0 });
  });

  it('another environment is admitted at once, however many of the first run or wait', () => {
    const s = share({ ms: 0 });
    for (let i = 0; i < 4; i += 1) s.tryEnter('a');
    expect(s.tryEnter('b')).toBe(true);
  });

  it('while another environment has requests, and for the linger after, an environment has its `contended` places', async () => {
    const now = { ms: 0 };
    const s = share(now);
    expect(s.tryEnter('b')).toBe(true);
    expect(s.tryEnter('a')).toBe(true);
    expect(s.tryEnter('a')).toBe(false);
    const admitted: number[] = [];
    for (let i = 0; i < 3; i += 1) void s.wait('a', () => {}).then(() => admitted.push(i));
    // b is done: the process stays shared for the linger, a goes on one at a time
    s.leave('b');
    s.leave('a');
    await tick();
    expect(admitted).toEqual([0]);
    expect(s.load('a')).toEqual({ running: 1, waiting: 2 });
    // the linger is over: a has its places alone again
    now.ms = 1_001;
    s.leave('a');
    await tick();
    expect(admitted).toEqual([0, 1, 2]);
    expect(s.load('a')).toEqual({ running: 2, waiting: 0 });
  });

  it('a full queue and a long wait are refused; a waiter whose client left gives its turn to the next', async () => {
    const s = share({ ms: 0 }, { alone: 1, maxWaitMs: 20 });
    expect(s.tryEnter('a')).toBe(true);
    let drop: (() => boolean) | undefined;
    const left = s.wait('a', (d) => {
      drop = d;
    });
    const second = s.wait('a', () => {});
    const third = s.wait('a', () => {});
    await expect(s.wait('a', () => {})).rejects.toEqual(new ShareRefused('queue full'));
    expect(drop?.()).toBe(true);
    s.leave('a');
    await second;
    expect(s.load('a')).toEqual({ running: 1, waiting: 1 });
    await expect(third).rejects.toEqual(new ShareRefused('waited too long'));
    void left;
    s.leave('a');
    expect(s.load('a')).toEqual({ running: 0, waiting: 0 });
  });

  it('an environment takes turns (lets others run between slices) only with requests waiting on a shared process', () => {
    const now = { ms: 0 };
    const s = share(now, { alone: 2, maxWaiting: 10 });
    // alone, even with a backlog: straight through
    s.tryEnter('a');
    s.tryEnter('a');
    void s.wait('a', () => {});
    expect(s.load('a')).toEqual({ running: 2, waiting: 1 });
    expect(s.yieldsTurns('a')).toBe(false);
    // another environment comes in: the backlogged one takes turns, the other runs straight through
    s.tryEnter('b');
    expect(s.yieldsTurns('a')).toBe(true);
    expect(s.yieldsTurns('b')).toBe(false);
    // b is done: still shared for the linger, then a runs straight through again
    s.leave('b');
    expect(s.yieldsTurns('a')).toBe(true);
    now.ms = 1_001;
    expect(s.yieldsTurns('a')).toBe(false);
    // an environment never seen takes no turns
    expect(s.yieldsTurns('c')).toBe(false);
  });
  it('each waiter is refused at its own deadline, and one given its place before it never is', async () => {
    const s = share({ ms: 0 }, { alone: 1, maxWaiting: 10, maxWaitMs: 40 });
    expect(s.tryEnter('a')).toBe(true);
    const outcome: string[] = [];
    const first = s
      .wait('a', () => {})
      .then(
        () => outcome.push('first admitted'),
        (e: ShareRefused) => outcome.push(`first ${e.reason}`),
      );
    await new Promise((r) => setTimeout(r, 25));
    const second = s
      .wait('a', () => {})
      .then(
        () => outcome.push('second admitted'),
        (e: ShareRefused) => outcome.push(`second ${e.reason}`),
      );
    const third = s
      .wait('a', () => {})
      .then(
        () => outcome.push('third admitted'),
        (e: ShareRefused) => outcome.push(`third ${e.reason}`),
      );
    await first;
    // the first is refused at its deadline, the later ones still wait (theirs is 25 ms later)
    expect(outcome).toEqual(['first waited too long']);
    expect(s.load('a')).toEqual({ running: 1, waiting: 2 });
    s.leave('a');
    await second;
    await third;
    expect(outcome).toEqual(['first waited too long', 'second admitted', 'third waited too long']);
    expect(s.load('a')).toEqual({ running: 1, waiting: 0 });
  });
});
