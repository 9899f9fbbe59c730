import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { CHECK_EVERY_PAGE_ITEM, pageOutput } from '../src/shared/entity/entity-router.js';

const row = z.object({ id: z.string(), name: z.string(), createdAt: z.date() });
const good = (id: string) => ({ id, name: `Org ${id}`, createdAt: new Date(0) });
const bad = { id: 'b', name: 7, createdAt: new Date(0) };

describe("a list page's output check", () => {
  it('the tests check every item of every page (vitest runs with NODE_ENV=test)', () => {
    expect(process.env.NODE_ENV).toBe('test');
    expect(CHECK_EVERY_PAGE_ITEM).toBe(true);
  });

  it('checking every item refuses a page whose later item does not match the schema', () => {
    const check = pageOutput(row, true);
    expect(check({ items: [good('a'), good('c')], count: null })).toEqual({ items: [good('a'), good('c')], count: null });
    expect(() => check({ items: [good('a'), bad], count: 2 })).toThrow(z.ZodError);
  });

  it('checking the first item refuses a page whose first item or whose shape does not match, and answers the page as read', () => {
    const check = pageOutput(row, false);
    const page = { items: [good('a'), good('c')], count: 2 };
    // the same object: nothing copied
    expect(check(page)).toBe(page);
    expect(check({ items: [], count: 0 })).toEqual({ items: [], count: 0 });
    expect(() => check({ items: [bad, good('a')], count: 2 })).toThrow(z.ZodError);
    expect(() => check({ items: [good('a')], count: 1.5 })).toThrow(z.ZodError);
    expect(() => check({ items: 'none', count: null })).toThrow(z.ZodError);
    // what it leaves to the tests' full check
    expect(check({ items: [good('a'), bad], count: 2 }).items[1]).toBe(bad);
  });
});
