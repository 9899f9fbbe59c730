import type { Response } from 'express';
import { JsonText } from './json-answer.js';

/** Items made between two looks at whether the request should let other work run first. */
export const ITEMS_PER_TURN = 10;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * A list's items in their wire form, each as its JSON text (`res.json` writes them as they are),
 * made in slices of ITEMS_PER_TURN. Between two slices, while the request's environment should let
 * others run (the guard's `yieldsTurns`: it has requests waiting on a process shared with other
 * environments, see RequestShare.yieldsTurns), the event loop first runs what is ready: another
 * environment's request waits for one slice of a page, not for the whole page's work. Otherwise
 * (alone, no backlog, no fair share) straight through.
 */
export async function jsonItemsInTurns<T>(res: Response, items: readonly T[], wire: (item: T) => unknown): Promise<JsonText[]> {
  const yieldsTurns = res.locals.yieldsTurns as (() => boolean) | undefined;
  const out: JsonText[] = [];
  for (let i = 0; i < items.length; i += 1) {
    if (i > 0 && i % ITEMS_PER_TURN === 0 && yieldsTurns?.()) await nextTurn();
    // JSON.stringify writes null for an array item it cannot represent
    out.push(new JsonText((JSON.stringify(wire(items[i] as T)) as string | undefined) ?? 'null'));
  }
  return out;
}

/**
 * Whether the request should take its work in turns now (see jsonItemsInTurns). A page whose JSON
 * PostgreSQL makes cannot: its work is one statement and one write. So a backlogged environment on
 * a shared process reads its pages the way that takes turns (tests/fair-share-cpu.test.ts: another
 * environment's p99 1.9–2.1× its quiet value with pages made by PostgreSQL, against 1.3–1.6× in turns).
 */
export function takesTurns(res: Response): boolean {
  const yieldsTurns = res.locals.yieldsTurns as (() => boolean) | undefined;
  return yieldsTurns?.() ?? false;
}
