// The fast timestamptz parser (src/timestamps.ts) against pg's general one, on values the
// real local PostgreSQL server writes in several time zones, and on forms it must hand over.
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { byPosition, parseTimestamptz } from '../src/timestamps.js';

const url = process.env.TEST_PG_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const general = pg.types.getTypeParser(1184, 'text') as (value: string) => unknown;
/** a parser's answer in comparable form: a Date's instant, anything else as itself */
const instant = (v: unknown) => (v instanceof Date ? (Number.isNaN(v.getTime()) ? 'invalid date' : v.getTime()) : v);

describe('timestamps read by position', () => {
  it('a timestamptz is the same instant through the fast parser as through the general one, in every zone and precision', async () => {
    const client = new pg.Client({ connectionString: url, types: { getTypeParser: () => (v: string) => v } });
    await client.connect();
    try {
      const texts: string[] = [];
      for (const zone of ['UTC', 'Europe/Amsterdam', 'Asia/Kolkata', 'America/St_Johns', 'Africa/Monrovia']) {
        await client.query(`SET TIME ZONE '${zone}'`);
        const r = await client.query<{ t: string }>(
          `SELECT t::text AS t FROM (VALUES
             (now()), (timestamptz '2026-11-24 21:27:10.171Z'), (timestamptz '2026-03-29 01:59:59.999999Z'),
             (timestamptz '2000-01-01 00:00:00Z'), (timestamptz '1872-01-01 12:00:00Z'), (timestamptz '0099-06-01 00:00:00Z'),
             (timestamptz '9999-12-31 23:59:59.5Z'), (timestamptz '12000-01-01 00:00:00Z'), (timestamptz '0044-03-15 12:00:00Z BC'),
             (timestamptz 'infinity'), (timestamptz '-infinity'), (timestamptz '2024-02-29 10:00:00.1Z')) v(t)`,
        );
        texts.push(...r.rows.map((x) => x.t));
      }
      expect(texts.some((t) => /\+05:30$/.test(t))).toBe(true);
      expect(texts.some((t) => /-03:30$/.test(t))).toBe(true);
      expect(texts.some((t) => /\.\d{6}[+-]/.test(t))).toBe(true);
      let read = 0;
      for (const text of texts) {
        expect(instant(parseTimestamptz(text)), text).toEqual(instant(general(text)));
        const fast = byPosition(text);
        if (fast) {
          read += 1;
          expect(fast.getTime(), text).toBe(instant(general(text)));
        }
      }
      // all but the years before 100 or past 9999, BC and the infinities are read by position
      const ordinary = texts.filter((t) => /^\d{4}-/.test(t) && !t.startsWith('00') && !t.endsWith(' BC'));
      expect(ordinary.length).toBeGreaterThan(30);
      expect(read).toBe(ordinary.length);
    } finally {
      await client.end();
    }
  });

  it('a text that is not a timestamp PostgreSQL writes goes to the general parser', () => {
    for (const text of [
      '2026-11-24 21:27:10+0',
      '2026-11-24T21:27:10+00',
      '2026-1x-24 21:27:10+00',
      '2026-11-24 21:27:10+00 BC',
      'garbage',
    ]) {
      expect(byPosition(text), text).toBeNull();
      expect(instant(parseTimestamptz(text)), text).toEqual(instant(general(text)));
    }
  });
});
