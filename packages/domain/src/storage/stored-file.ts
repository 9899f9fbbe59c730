import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { z } from 'zod';

/**
 * A file the storage endpoints answer with: what the HTTP layer needs for
 * Content-Type, Content-Disposition, ETag and Range, and a way to open its
 * bytes (whole or a byte range) that it calls only when it sends them.
 */
export interface StoredFile {
  fileName: string;
  contentType: string;
  size: number;
  /** a strong validator: the bytes under it never change */
  etag: string;
  /** long-lived caching is safe (the address names the content) */
  immutable?: boolean;
  open(range?: { start: number; end: number }): Readable;
}

export const storedFileSchema = z.custom<StoredFile>(
  (v) => typeof v === 'object' && v !== null && typeof (v as StoredFile).open === 'function',
  'a stored file',
);

/** An ETag from what identifies immutable bytes (a storage key and size, or a content hash). */
export function etagOf(...parts: (string | number)[]): string {
  return `"${createHash('sha256').update(parts.join('\u0000')).digest('base64url').slice(0, 32)}"`;
}
