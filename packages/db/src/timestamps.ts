import pg from 'pg';

const TIMESTAMPTZ = 1184;
// answers a Date, or for infinity and text it cannot read what pg answers there
const general = pg.types.getTypeParser(TIMESTAMPTZ, 'text') as (value: string) => unknown;

/** `count` decimal digits of `s` from `at`, or -1 when one is not a digit */
function digits(s: string, at: number, count: number): number {
  let v = 0;
  for (let i = at; i < at + count; i += 1) {
    const d = s.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return -1;
    v = v * 10 + d;
  }
  return v;
}

/**
 * A `timestamptz` as PostgreSQL writes it with DateStyle ISO (`2026-11-24 21:27:10.171+00`,
 * offsets `+05:30` or `-03:00:27`), read by position: the general parser's regular expressions
 * showed in the list profile (200 values a page). Anything else (years before 100 or past 9999,
 * BC, infinity) goes to the general parser, which answers the same for every value.
 */
export function parseTimestamptz(s: string): unknown {
  return byPosition(s) ?? general(s);
}

/** the instant of an ISO-style timestamptz of years 100 to 9999; null for any other text */
export function byPosition(s: string): Date | null {
  if (s.length < 22 || s.charCodeAt(4) !== 45 || s.charCodeAt(10) !== 32) return null;
  const year = digits(s, 0, 4);
  const month = digits(s, 5, 2);
  const day = digits(s, 8, 2);
  const hour = digits(s, 11, 2);
  const minute = digits(s, 14, 2);
  const second = digits(s, 17, 2);
  if (year < 100 || month < 0 || day < 0 || hour < 0 || minute < 0 || second < 0) return null;
  let i = 19;
  let ms = 0;
  if (s.charCodeAt(i) === 46) {
    i += 1;
    let scale = 100;
    for (; i < s.length; i += 1) {
      const d = s.charCodeAt(i) - 48;
      if (d < 0 || d > 9) break;
      ms += d * scale;
      scale /= 10;
    }
  }
  const sign = s.charCodeAt(i);
  if (sign !== 43 && sign !== 45) return null;
  const zone = [digits(s, i + 1, 2), 0, 0];
  let at = i + 3;
  for (let k = 1; k < 3 && at < s.length; k += 1) {
    if (s.charCodeAt(at) !== 58) return null;
    zone[k] = digits(s, at + 1, 2);
    at += 3;
  }
  const [zh = -1, zm = -1, zs = -1] = zone;
  if (at !== s.length || zh < 0 || zm < 0 || zs < 0) return null;
  const offsetMs = (zh * 3600 + zm * 60 + zs) * 1000 * (sign === 45 ? -1 : 1);
  return new Date(Date.UTC(year, month - 1, day, hour, minute, second, Math.trunc(ms)) - offsetMs);
}

/** pg's type parsers with the fast `timestamptz` parser */
export const fastTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === TIMESTAMPTZ && format !== 'binary') return parseTimestamptz;
    return pg.types.getTypeParser(oid, format as 'text');
  },
};
