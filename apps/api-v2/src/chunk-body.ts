import { DEFAULT_MAX_JSON_DEPTH, JsonTooDeepError } from '@bo/http';
import type { Request } from 'express';

/**
 * The body of PUT /upload/chunked/{id}, read without JSON.parse of the whole: a
 * chunk is up to 512,000 characters of base64, and parsing it the usual way
 * builds the body as a ~0.7 MB string and the chunk as another ~0.5 MB string per
 * request (large-object space, freed only by a full GC: the server's RSS grew by
 * ~190 MB over a 200 MB upload). Here the body is copied into a reused buffer and
 * the chunk is handed on as the bytes of its base64 text, a view on that buffer;
 * the other members are small and parsed as usual.
 */
export const MAX_BODY_BYTES = 1024 * 1024;

const free: Buffer[] = [];
const KEEP_FREE = 4;

/** A body buffer for one request; give it back with `release` when the request is done. */
function acquire(): Buffer {
  return free.pop() ?? Buffer.allocUnsafeSlow(MAX_BODY_BYTES);
}

export interface ChunkBody {
  members: Record<string, unknown>;
  release(): void;
}

export async function readChunkBody(req: Request, maxDepth = DEFAULT_MAX_JSON_DEPTH): Promise<ChunkBody> {
  const buf = acquire();
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    if (free.length < KEEP_FREE) free.push(buf);
  };
  try {
    let length = 0;
    for await (const piece of req as AsyncIterable<Buffer>) {
      if (length + piece.length > MAX_BODY_BYTES) {
        throw Object.assign(new Error('request entity too large'), { type: 'entity.too.large' });
      }
      piece.copy(buf, length);
      length += piece.length;
    }
    return { members: parseMembers(buf.subarray(0, length), maxDepth), release };
  } catch (err) {
    release();
    throw err;
  }
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

function notJson(): never {
  throw Object.assign(new Error('the body is not valid JSON'), { type: 'entity.parse.failed' });
}

function isSpace(c: number | undefined): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

/** index just past the string that starts (with its quote) at `i`; `escaped` tells whether it holds a backslash */
function skipString(b: Buffer, i: number): { end: number; escaped: boolean } {
  let j = i + 1;
  for (;;) {
    const q = b.indexOf(QUOTE, j);
    if (q === -1) notJson();
    // a quote is escaped when an odd number of backslashes precede it
    let k = q - 1;
    while (k > i && b[k] === BACKSLASH) k -= 1;
    if ((q - 1 - k) % 2 === 0) {
      const bs = b.indexOf(BACKSLASH, i + 1);
      return { end: q + 1, escaped: bs !== -1 && bs < q };
    }
    j = q + 1;
  }
}

/** index just past the JSON value that starts at `i` (checked by JSON.parse later, or as base64) */
function skipValue(b: Buffer, i: number, maxDepth: number): number {
  const c = b[i];
  if (c === QUOTE) return skipString(b, i).end;
  if (c === 0x7b || c === 0x5b) {
    let depth = 0;
    let j = i;
    while (j < b.length) {
      const x = b[j];
      if (x === QUOTE) {
        j = skipString(b, j).end;
        continue;
      }
      if (x === 0x7b || x === 0x5b) {
        depth += 1;
        // the object itself is one level
        if (depth + 1 > maxDepth) throw new JsonTooDeepError(maxDepth);
      } else if (x === 0x7d || x === 0x5d) {
        depth -= 1;
        if (depth === 0) return j + 1;
      }
      j += 1;
    }
    notJson();
  }
  let j = i;
  while (j < b.length && b[j] !== 0x2c && b[j] !== 0x7d && b[j] !== 0x5d && !isSpace(b[j])) j += 1;
  if (j === i) notJson();
  return j;
}

/**
 * The members of a JSON object. A `chunk` string without escapes stays bytes (a
 * view on `b`); every other value is parsed by JSON.parse on its own bytes.
 */
export function parseMembers(b: Buffer, maxDepth = DEFAULT_MAX_JSON_DEPTH): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  let i = 0;
  const ws = () => {
    while (isSpace(b[i])) i += 1;
  };
  ws();
  if (b[i] !== 0x7b) notJson();
  i += 1;
  ws();
  if (b[i] === 0x7d) {
    i += 1;
  } else {
    for (;;) {
      ws();
      if (b[i] !== QUOTE) notJson();
      const keyEnd = skipString(b, i).end;
      const key = JSON.parse(b.toString('utf8', i, keyEnd)) as string;
      i = keyEnd;
      ws();
      if (b[i] !== 0x3a) notJson();
      i += 1;
      ws();
      const start = i;
      if (start >= b.length) notJson();
      if (key === 'chunk' && b[start] === QUOTE) {
        const s = skipString(b, start);
        // escapes are rare in base64 ("\/" from some encoders): only then is it parsed as a string
        out.chunk = s.escaped ? (JSON.parse(b.toString('utf8', start, s.end)) as string) : b.subarray(start + 1, s.end - 1);
        i = s.end;
      } else {
        i = skipValue(b, start, maxDepth);
        let value: unknown;
        try {
          value = JSON.parse(b.toString('utf8', start, i));
        } catch {
          notJson();
        }
        // an own property even for "__proto__", so it is refused as an unknown member, never a prototype
        Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
      }
      ws();
      if (b[i] === 0x2c) {
        i += 1;
        continue;
      }
      if (b[i] === 0x7d) {
        i += 1;
        break;
      }
      notJson();
    }
  }
  ws();
  if (i !== b.length) notJson();
  return out;
}
