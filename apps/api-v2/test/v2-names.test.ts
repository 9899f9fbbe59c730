// The v2 mapping of domain records (src/resources/v2-names.ts): its precompiled shapes must
// answer exactly what renaming key by key answers.
import { describe, expect, it } from 'vitest';
import { v2DateTime, v2Names } from '../src/resources/v2-names.js';

describe('v2 names: records out', () => {
  const names = v2Names({ organizationsize: 'organizationSize' });

  it('every key renamed at every depth, date-times in v2 form, the key order kept, for each record of a shape', () => {
    const rows = [1, 2, 3].map((i) => ({
      id: `o${i}`,
      vatNumber: i === 2 ? null : `NL${i}`,
      organizationSize: { id: `s${i}`, sizeLabel: 'small' },
      createdAt: new Date(Date.UTC(2026, 0, i, 10, 11, 12)),
      interests: [{ apiName: 'a' }],
    }));
    const out = rows.map((r) => names.output(r));
    expect(out[1]).toEqual({
      id: 'o2',
      vat_number: null,
      organizationsize: { id: 's2', size_label: 'small' },
      created_at: '2026-01-02 10:11:12',
      interests: [{ api_name: 'a' }],
    });
    expect(Object.keys(out[2] as object)).toEqual(['id', 'vat_number', 'organizationsize', 'created_at', 'interests']);
    expect((out[0] as { vat_number: string }).vat_number).toBe('NL1');
  });

  it('records of other shapes are not mixed up with a remembered one', () => {
    expect(names.output({ id: 'x', vatNumber: 'A' })).toEqual({ id: 'x', vat_number: 'A' });
    expect(names.output({ vatNumber: 'A', id: 'x' })).toEqual({ vat_number: 'A', id: 'x' });
    expect(names.output({ id: 'x' })).toEqual({ id: 'x' });
    expect(names.output({})).toEqual({});
  });

  it('a record holding a __proto__ key keeps it as data: the prototype of the answer is untouched', () => {
    const record = JSON.parse('{"__proto__": {"polluted": true}, "someKey": 1}') as Record<string, unknown>;
    const out = names.output(record) as Record<string, unknown>;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect((out as { polluted?: boolean }).polluted).toBeUndefined();
    expect(Object.hasOwn(out, '__proto__')).toBe(true);
    expect(out.some_key).toBe(1);
  });

  it('keys that look like code are only keys', () => {
    const record = { 'a"b': 1, "c'd": 2, 'e\\nf': 3, '}); throw 1; ({': 4 } as Record<string, unknown>;
    expect(names.output(record)).toEqual(record);
  });

  it('v2 date-times: UTC, seconds, and years past 9999 in the same form', () => {
    expect(v2DateTime(new Date(Date.UTC(2024, 1, 29, 23, 59, 59, 999)))).toBe('2024-02-29 23:59:59');
    expect(v2DateTime('2024-02-29T23:59:59+02:00')).toBe('2024-02-29 21:59:59');
    expect(v2DateTime(new Date(Date.UTC(10000, 0, 1)))).toBe('+010000-01-01 00:00:00');
    expect(v2DateTime(null)).toBeNull();
    expect(v2DateTime('not a date')).toBeNull();
    expect(v2DateTime(new Date(Date.UTC(999, 11, 31, 23, 59, 59)))).toBe('0999-12-31 23:59:59');
    expect(v2DateTime(new Date(Date.UTC(1000, 0, 1, 0, 0, 0)))).toBe('1000-01-01 00:00:00');
    expect(v2DateTime(new Date(Date.UTC(9999, 11, 31, 23, 59, 59, 999)))).toBe('9999-12-31 23:59:59');
  });

  it('v2 date-times written by parts are the ISO form cut to the second, at every hour of many days', () => {
    let checked = 0;
    for (let t = Date.UTC(1969, 11, 31, 22); t < Date.UTC(2031, 0, 2); t += 3_600_000 * 97 + 61_007) {
      const d = new Date(t);
      const iso = d.toISOString();
      expect(v2DateTime(d)).toBe(`${iso.slice(0, 10)} ${iso.slice(11, 19)}`);
      checked += 1;
    }
    expect(checked).toBeGreaterThan(5000);
  });
});
