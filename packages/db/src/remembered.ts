// Reads a process may remember for a moment: what nearly every request reads and almost
// nothing changes (a token with its user's rights, the custom-field definitions of a model).
// A remembered answer is used only while the process LISTENs on the channel its source
// tables notify (triggers in the migrations 20261124223000_remembered_reads_notify and
// 20261125014500_credentials_changed_notify), it is forgotten at once on any notification
// there, and it is never older than MAX_AGE_MS. It is given only once the listening
// connection has caught up with the request (NotificationListener.caughtUp: one query on that
// connection, shared by the requests that wait at once): a change committed anywhere before a
// request came counts for that request on every process, however late its notification would
// have come on its own. Misses are never remembered, so unknown keys cannot fill the memory.
// On the embedded database nothing listens (one connection for everyone): every read goes to
// the database.
import { createNotificationListener, type NotificationListener } from './notifications.js';
import { requestStartedAt } from './pool.js';

/** The channels remembered reads are forgotten on (names the triggers notify). */
export type RememberedChannel = 'credentials_changed' | 'custom_fields_changed';

/** the longest a remembered answer is used */
export const MAX_AGE_MS = 1_000;
/** answers remembered per channel; past it, all are forgotten (a cheap bound, rarely reached) */
const MAX_ENTRIES = 10_000;

export interface RememberedReads {
  /** `load()`'s answer for `key`, remembered (undefined and null answers are not) */
  read<T>(channel: RememberedChannel, key: string, load: () => Promise<T>): Promise<T>;
  /** forgets everything (a write of this process that others learn of by notification) */
  forget(channel: RememberedChannel): void;
  close(): Promise<void>;
}

interface Entry {
  value: unknown;
  at: number;
}

/** Remembered reads on one database; `listener` null: nothing is remembered. */
export function rememberedReads(listener: NotificationListener | null, now: () => number = Date.now): RememberedReads {
  const entries = new Map<RememberedChannel, Map<string, Entry>>();
  /** bumped at each forget: an answer loaded across one is not remembered */
  const generations = new Map<RememberedChannel, number>();
  const stops: (() => void)[] = [];
  // a notification, or a (re)established LISTEN ('' after a gap): forget all of that channel
  const forget = (channel: RememberedChannel) => {
    generations.set(channel, (generations.get(channel) ?? 0) + 1);
    entries.get(channel)?.clear();
  };
  const subscribed = new Set<RememberedChannel>();
  const subscribe = (channel: RememberedChannel) => {
    if (!listener || subscribed.has(channel)) return;
    subscribed.add(channel);
    stops.push(listener.on(channel, () => forget(channel)));
  };
  return {
    async read<T>(channel: RememberedChannel, key: string, load: () => Promise<T>): Promise<T> {
      subscribe(channel);
      if (!listener?.listening) return load();
      let byKey = entries.get(channel);
      if (!byKey) {
        byKey = new Map();
        entries.set(channel, byKey);
      }
      const hit = byKey.get(key);
      const t = now();
      if (hit && t - hit.at < MAX_AGE_MS) {
        // used only once the listening connection has caught up with the request: a change
        // committed before the request came has been notified (and forgotten) by then
        const before = generations.get(channel) ?? 0;
        if ((await listener.caughtUp(requestStartedAt())) && before === (generations.get(channel) ?? 0)) {
          return hit.value as T;
        }
      }
      const generation = generations.get(channel) ?? 0;
      const value = await load();
      // remembered only if nothing was forgotten while it loaded: a notification that
      // arrived meanwhile may describe a change the answer predates
      if (value !== undefined && value !== null && generation === (generations.get(channel) ?? 0) && listener.listening) {
        if (byKey.size >= MAX_ENTRIES) byKey.clear();
        byKey.set(key, { value, at: t });
      }
      return value;
    },
    forget,
    async close() {
      for (const stop of stops) stop();
      await listener?.close();
    },
  };
}

/** Remembered reads of a database by its connection settings (the process's shared listening connection). */
export function rememberedReadsOn(opts: { connectionString: string; embedded: boolean; listen: boolean }): RememberedReads {
  if (opts.embedded || !opts.listen) return rememberedReads(null);
  return rememberedReads(createNotificationListener({ connectionString: opts.connectionString, embedded: false }));
}
