import { describe, expect, it } from 'vitest';
import { isUuidV7, newEntityId, uuidv7 } from '../src/shared/ids.js';

describe('identifiers', () => {
  it('an entity id is <entity_type>:<32 hex digits>, never twice across many refills of the random pool', () => {
    const ids = new Set<string>();
    for (let i = 0; i < 20_000; i += 1) {
      const id = newEntityId('organization');
      expect(id).toMatch(/^organization:[0-9a-f]{32}$/);
      ids.add(id);
    }
    expect(ids.size).toBe(20_000);
  });

  it('a UUID version 7 carries its time first, and two made in one millisecond differ', () => {
    const at = Date.UTC(2026, 10, 25);
    const a = uuidv7(at);
    const b = uuidv7(at);
    expect(isUuidV7(a)).toBe(true);
    expect(a).not.toBe(b);
    expect(Number.parseInt(a.replace(/-/g, '').slice(0, 12), 16)).toBe(at);
    expect(uuidv7(at + 1) > a.slice(0, 13)).toBe(true);
  });
});
