import type { Express, Response } from 'express';

/**
 * `res.json` for every door (v2, v3, the health check, /trpc's refusals; tRPC writes its answers
 * itself). express's own turns any body over 1,000 characters into a Buffer to count its bytes
 * before writing it: a copy of every list page (measured: docs/performance.md). node:http counts a string given whole to `end()` itself (Buffer.byteLength, no copy)
 * and the socket encodes it as it writes; a large answer goes in parts (see JSON_PART_CHARACTERS). Same answer as express's: `application/json;
 * charset=utf-8` unless a type was set (then its charset is added), no body for HEAD, 204 and 304.
 */
function json(this: Response, body: unknown): Response {
  const parts = jsonParts(body);
  const type = this.get('Content-Type');
  if (!type) this.setHeader('Content-Type', 'application/json; charset=utf-8');
  else if (!/;\s*charset=/i.test(type)) this.setHeader('Content-Type', `${type}; charset=utf-8`);
  if (parts === undefined || this.req.method === 'HEAD' || this.statusCode === 204 || this.statusCode === 304) {
    if (parts !== undefined && this.req.method === 'HEAD') this.setHeader('Content-Length', byteLength(parts));
    this.end();
    return this;
  }
  if (typeof parts === 'string') {
    this.end(parts, 'utf8');
    return this;
  }
  this.setHeader('Content-Length', byteLength(parts));
  const last = parts.length - 1;
  for (let i = 0; i < last; i += 1) this.write(parts[i] as string, 'utf8');
  this.end(parts[last] as string, 'utf8');
  return this;
}

function byteLength(parts: string | string[]): number {
  if (typeof parts === 'string') return Buffer.byteLength(parts, 'utf8');
  let n = 0;
  for (const part of parts) n += Buffer.byteLength(part, 'utf8');
  return n;
}

/**
 * Characters per part of a large answer. A string (and the buffer a socket encodes it into) of
 * more than 128 kB is allocated apart from the rest (V8's large-object space, glibc's mmap): a
 * page of 100 organizations (155 kB) cost three mmap/munmap pairs and their page faults per
 * request, about a tenth of its CPU. Parts of 32,768 characters (at most 128 kB in UTF-8) never do.
 */
export const JSON_PART_CHARACTERS = 32_768;

/** Arrays shorter than this are stringified whole (a part per item would cost more than it saves). */
const PARTED_ARRAY_LENGTH = 16;

/**
 * An array item already turned into JSON (jsonItemsInTurns): a body's array, or an array among a
 * body's values, whose first item is one is written in parts, each such item as its text. Anywhere
 * else JSON.stringify meets it, it stands for the value it holds (toJSON parses it: right, not fast).
 */
export class JsonText {
  constructor(readonly text: string) {}

  toJSON(): unknown {
    return JSON.parse(this.text);
  }
}

/** an array to write item by item: long, or holding items already in JSON */
function isPartedArray(v: unknown): v is unknown[] {
  return Array.isArray(v) && (v.length >= PARTED_ARRAY_LENGTH || v[0] instanceof JsonText);
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return (proto === Object.prototype || proto === null) && typeof (v as { toJSON?: unknown }).toJSON !== 'function';
}

/**
 * JSON.stringify(body), as one string when it is small or not an envelope, else as parts of about
 * JSON_PART_CHARACTERS whose concatenation is exactly JSON.stringify(body): a top-level array, or
 * the arrays among a plain object's values (a v2 `data`, a v3 `items`), are written item by item
 * (a JsonText item as its text); a JsonText value of such an object is written as its text.
 * undefined when JSON.stringify answers undefined.
 */
export function jsonParts(body: unknown): string | string[] | undefined {
  const parted = Array.isArray(body)
    ? isPartedArray(body)
    : isPlainObject(body) && Object.values(body).some((v) => isPartedArray(v) || v instanceof JsonText);
  if (!parted) return JSON.stringify(body) as string | undefined;
  const out = new Parts();
  if (Array.isArray(body)) arrayInto(out, body);
  else {
    out.add('{');
    let first = true;
    for (const [key, value] of Object.entries(body as Record<string, unknown>)) {
      // what JSON.stringify leaves out of an object
      if (value === undefined || typeof value === 'function' || typeof value === 'symbol') continue;
      out.add(first ? `${JSON.stringify(key)}:` : `,${JSON.stringify(key)}:`);
      first = false;
      if (isPartedArray(value)) arrayInto(out, value);
      else if (value instanceof JsonText) out.add(value.text);
      else out.add(JSON.stringify(value) as string);
    }
    out.add('}');
  }
  return out.done();
}

function arrayInto(out: Parts, items: unknown[]): void {
  out.add('[');
  for (let i = 0; i < items.length; i += 1) {
    const x = items[i];
    // JSON.stringify writes null for an item it cannot represent
    const item = x instanceof JsonText ? x.text : ((JSON.stringify(x) as string | undefined) ?? 'null');
    out.add(i === 0 ? item : `,${item}`);
  }
  out.add(']');
}

class Parts {
  private readonly parts: string[] = [];
  private current = '';

  add(text: string): void {
    if (this.current.length > 0 && this.current.length + text.length > JSON_PART_CHARACTERS) {
      this.parts.push(this.current);
      this.current = '';
    }
    this.current += text;
  }

  done(): string[] {
    if (this.current.length > 0 || this.parts.length === 0) this.parts.push(this.current);
    return this.parts;
  }
}

/** Installs it on an app: every response of the app (and of the routers mounted on it) uses it. */
export function answerJsonWithoutCopy(app: Express): void {
  app.response.json = json as Express['response']['json'];
}
