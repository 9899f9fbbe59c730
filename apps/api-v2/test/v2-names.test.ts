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

describe('v2 names: renaming at every depth', () => {
  const names = v2Names({ organizationsize: 'organizationSize', line_1: 'line1' });

  it('objects nested in objects and in arrays are renamed, exceptions included; null stays null at every depth', () => {
    const record = {
      relationType: { id: 'r', colorCode: null },
      visitingAddress: { line1: 'Main 1', postalCode: null, countryRef: { isoCode: 'NL' } },
      organizationSize: null,
      contactPersons: [
        { fullName: 'A', workEmail: null, mailingLists: [{ listName: 'x' }] },
        { fullName: 'B', workEmail: 'b@x', mailingLists: [] },
      ],
      tagMatrix: [[{ tagName: 'a' }], [], [null]],
      plainList: ['camelCase', 1, null, true],
      noteText: null,
    };
    expect(names.output(record)).toEqual({
      relation_type: { id: 'r', color_code: null },
      visiting_address: { line_1: 'Main 1', postal_code: null, country_ref: { iso_code: 'NL' } },
      organizationsize: null,
      contact_persons: [
        { full_name: 'A', work_email: null, mailing_lists: [{ list_name: 'x' }] },
        { full_name: 'B', work_email: 'b@x', mailing_lists: [] },
      ],
      tag_matrix: [[{ tag_name: 'a' }], [], [null]],
      // values are never renamed, only keys
      plain_list: ['camelCase', 1, null, true],
      note_text: null,
    });
    expect(names.output(null)).toBeNull();
    expect(names.output([null, { someKey: null }])).toEqual([null, { some_key: null }]);
    expect(names.output('fooBar')).toBe('fooBar');
  });

  it('a record of many keys (past the size V8 keeps in fast mode when built key by key) is renamed like a small one, row after row', () => {
    const wide = (row: number) =>
      Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`fieldNumber${i}`, i % 5 === 0 ? null : `${row}:${i}`]));
    for (let row = 0; row < 3; row += 1) {
      const out = names.output(wide(row)) as Record<string, unknown>;
      expect(Object.keys(out)).toEqual(Array.from({ length: 40 }, (_, i) => `field_number${i}`));
      expect(out.field_number0).toBeNull();
      expect(out.field_number39).toBe(`${row}:39`);
    }
  });

  it('a v2 body is renamed to domain names at every depth, arrays and null included', () => {
    expect(
      names.input({
        relation_type: { id: 'r' },
        organizationsize: null,
        visiting_address: { line_1: 'Main 1', postal_code: null },
        contact_persons: [{ work_email: 'a@x', mailing_lists: [{ list_name: 'x' }] }, null],
      }),
    ).toEqual({
      relationType: { id: 'r' },
      organizationSize: null,
      visitingAddress: { line1: 'Main 1', postalCode: null },
      contactPersons: [{ workEmail: 'a@x', mailingLists: [{ listName: 'x' }] }, null],
    });
    expect(names.input(null)).toBeNull();
  });
});
