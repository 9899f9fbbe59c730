/**
 * The nesting limit of JSON bodies, checked on the bytes as they are read, before JSON.parse and
 * before any walk over the value: every recursive function over input (key renaming, schema
 * checks, custom-field values) then meets at most this depth.
 */
export const DEFAULT_MAX_JSON_DEPTH = 32;

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * Whether JSON text nests arrays and objects deeper than `max` (a scalar is depth 0, `[]` and `{}`
 * depth 1). One pass over the bytes, brackets inside strings ignored; it stops at the first level
 * past the limit. Malformed text is left to the parser.
 */
export function jsonTextDeeperThan(text: Uint8Array | string, max: number): boolean {
  const bytes = typeof text === 'string' ? Buffer.from(text) : text;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i += 1) {
    const b = bytes[i];
    if (inString) {
      if (b === BACKSLASH) i += 1;
      else if (b === QUOTE) inString = false;
    } else if (b === QUOTE) inString = true;
    else if (b === OPEN_BRACE || b === OPEN_BRACKET) {
      depth += 1;
      if (depth > max) return true;
    } else if (b === CLOSE_BRACE || b === CLOSE_BRACKET) depth -= 1;
  }
  return false;
}

/** A body nested deeper than the limit: each door answers it as a 400 in its own shape. */
export class JsonTooDeepError extends Error {
  /** body-parser's error kinds are told apart by `type` */
  readonly type = 'entity.too.deep';
  readonly status = 400;
  constructor(readonly maxDepth: number) {
    super(`the body nests arrays and objects deeper than ${maxDepth} levels`);
  }
}

/** A body-parser `verify` hook that refuses a body nested deeper than `max` before it is parsed. */
export function refuseDeepJson(max: number): (req: unknown, res: unknown, body: Buffer) => void {
  return (_req, _res, body) => {
    if (jsonTextDeeperThan(body, max)) throw new JsonTooDeepError(max);
  };
}
