// The rules of remembered reads (src/remembered.ts), on a listener whose state the test sets.
// The listening connection itself is tested against the server in notifications.test.ts, and
// the whole path (a trigger's NOTIFY forgetting a token) in tests/read-path.test.ts.
import { describe, expect, it } from 'vitest';
import type { NotificationListener } from '../src/notifications.js';
import { MAX_AGE_MS, rememberedReads } from '../src/remembered.js';

function controlledListener() {
  const handlers = new Map<string, Set<(payload: string) => void>>();
  const listener: NotificationListener & {
    listening: boolean;
    notify(channel: string): void;
    /** what catching up hears (notifications the server sent before its answer), and its answer */
    catchingUp: () => boolean;
  } = {
    listening: true,
    catchingUp: () => true,
    caughtUp: async () => listener.catchingUp(),
    walPositionSince: async () => null,
    on(channel, handler) {
      const set = handlers.get(channel) ?? new Set();
      set.add(handler);
      handlers.set(channel, set);
      return () => set.delete(handler);
    },
    notify(channel) {
      for (const h of handlers.get(channel) ?? []) h('');
    },
    close: async () => {},
  };
  return listener;
}

function counter(value: unknown) {
  let loads = 0;
  return {
    load: async () => {
      loads += 1;
      return value;
    },
    get loads() {
      return loads;
    },
  };
}

/** remembered reads on a controlled listener, and a counted load answering one token */
function remembering() {
  const listener = controlledListener();
  return { listener, reads: rememberedReads(listener), c: counter({ id: 'token' }) };
}

describe('remembered reads', () => {
  it('an answer is remembered while the process listens, and read again once a notification comes', async () => {
    const { listener, reads, c } = remembering();
    await reads.read('custom_fields_changed', 'k', c.load);
    await reads.read('custom_fields_changed', 'k', c.load);
    expect(c.loads).toBe(1);
    listener.notify('custom_fields_changed');
    await reads.read('custom_fields_changed', 'k', c.load);
    expect(c.loads).toBe(2);
  });

  it('a notification on another channel forgets nothing of this one', async () => {
    const { listener, reads, c } = remembering();
    await reads.read('custom_fields_changed', 'k', c.load);
    listener.notify('event_recorded');
    await reads.read('custom_fields_changed', 'k', c.load);
    expect(c.loads).toBe(1);
  });

  it('nothing is remembered while the process does not listen (or without a listener)', async () => {
    const listener = controlledListener();
    listener.listening = false;
    const reads = rememberedReads(listener);
    const c = counter({ id: 'token' });
    await reads.read('custom_fields_changed', 'k', c.load);
    await reads.read('custom_fields_changed', 'k', c.load);
    expect(c.loads).toBe(2);
    const none = rememberedReads(null);
    await none.read('custom_fields_changed', 'k', c.load);
    expect(c.loads).toBe(3);
  });

  it(`an answer is never used after ${MAX_AGE_MS} ms, notified or not`, async () => {
    let now = 1_000_000;
    const reads = rememberedReads(controlledListener(), () => now);
    const c = counter({ id: 'token' });
    await reads.read('custom_fields_changed', 'k', c.load);
    now += MAX_AGE_MS - 1;
    await reads.read('custom_fields_changed', 'k', c.load);
    expect(c.loads).toBe(1);
    now += 1;
    await reads.read('custom_fields_changed', 'k', c.load);
    expect(c.loads).toBe(2);
  });

  it('an answer loaded while a notification came is not remembered (it may predate the change)', async () => {
    const listener = controlledListener();
    const reads = rememberedReads(listener);
    let loads = 0;
    const load = async () => {
      loads += 1;
      if (loads === 1) listener.notify('custom_fields_changed');
      return { id: 'token' };
    };
    await reads.read('custom_fields_changed', 'k', load);
    await reads.read('custom_fields_changed', 'k', load);
    expect(loads).toBe(2);
  });

  it('a remembered answer is given only once the listener has caught up: a notification it hears on the way forgets it', async () => {
    const { listener, reads, c } = remembering();
    await reads.read('credentials_changed', 'k', c.load);
    // the change was committed before this request came; its notification is read while catching up
    listener.catchingUp = () => {
      listener.notify('credentials_changed');
      return true;
    };
    await reads.read('credentials_changed', 'k', c.load);
    expect(c.loads).toBe(2);
    listener.catchingUp = () => true;
    await reads.read('credentials_changed', 'k', c.load);
    expect(c.loads).toBe(2);
  });

  it('a listener that cannot catch up (no answer in time) is not trusted: the database is read', async () => {
    const { listener, reads, c } = remembering();
    await reads.read('credentials_changed', 'k', c.load);
    listener.catchingUp = () => false;
    await reads.read('credentials_changed', 'k', c.load);
    await reads.read('credentials_changed', 'k', c.load);
    expect(c.loads).toBe(3);
  });

  it('misses are not remembered: unknown keys cannot fill the memory', async () => {
    const reads = rememberedReads(controlledListener());
    for (const miss of [undefined, null]) {
      const c = counter(miss);
      await reads.read('custom_fields_changed', 'unknown', c.load);
      await reads.read('custom_fields_changed', 'unknown', c.load);
      expect(c.loads).toBe(2);
    }
  });
});
