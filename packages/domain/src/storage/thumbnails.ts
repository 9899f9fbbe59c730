import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import sharp from 'sharp';
import { ValidationError } from '../shared/errors.js';
import type { FileStorage } from '../shared/storage.js';
import { knownFailure, rememberFailure } from '../rendering/remembered-failures.js';
import { CONTENT_FAILURES, type RenderJob, type RenderPool } from '../rendering/render-pool.js';
import { DEFAULT_MAX_IMAGE_PIXELS } from '../uploads/upload-config.js';
import { fileIconSvg, fileKind } from './file-kind.js';
import { normalType, RASTER_IMAGES } from './inspect.js';
import { etagOf, type StoredFile } from './stored-file.js';

/** The largest PDF a thumbnail is made of (larger: its icon). */
export const PDF_RENDER_MAX_BYTES = 20 * 1024 * 1024;

/** The sizes thumbnails are made in (the longest side, in pixels); preview is the largest. */
export const THUMBNAIL_SIZES = [64, 128, 256, 512, 1024] as const;
export const PREVIEW_SIZE = 1024;
const DEFAULT_SIZE = 256;

export function thumbnailSize(value: unknown): number {
  if (value === undefined || value === null || value === '') return DEFAULT_SIZE;
  const n = Number(value);
  if (!THUMBNAIL_SIZES.includes(n as (typeof THUMBNAIL_SIZES)[number])) {
    throw new ValidationError([{ path: 'size', message: `size is one of ${THUMBNAIL_SIZES.join(', ')}`, code: 'invalid_value' }]);
  }
  return n;
}

/** What a thumbnail is made of: stored bytes, their type and name, and their content hash when known. */
export interface ThumbnailSource {
  storageKey: string;
  contentType: string;
  fileName: string;
  sha256?: string;
}

// the content hash of immutable bytes (a document's), so a thumbnail costs one hash per process
const hashes = new Map<string, string>();

async function contentHash(storage: FileStorage, key: string): Promise<string> {
  const known = hashes.get(key);
  if (known) return known;
  const hash = createHash('sha256');
  for await (const chunk of storage.createReadStream(key)) hash.update(chunk as Buffer);
  const hex = hash.digest('hex');
  if (hashes.size > 10_000) hashes.clear();
  hashes.set(key, hex);
  return hex;
}

function bytesFile(bytes: Buffer, contentType: string, fileName: string, etag: string): StoredFile {
  return {
    fileName,
    contentType,
    size: bytes.length,
    etag,
    immutable: true,
    open: (range) => Readable.from(range ? bytes.subarray(range.start, range.end + 1) : bytes),
  };
}

/** The icon of a file's type, as an answer. */
export function iconFile(kind: ReturnType<typeof fileKind>, size = 64): StoredFile {
  const svg = Buffer.from(fileIconSvg(kind, size));
  return bytesFile(svg, 'image/svg+xml', `${kind}.svg`, etagOf('icon', kind, size, svg.length));
}

export interface ThumbnailOptions {
  /** an image (or a PDF page's image) whose header declares more pixels is never decoded */
  maxPixels?: number;
  /** where the rendering runs, and whose turn it takes */
  pool: RenderPool;
  environment: string;
}

// one rendering per environment, content and size at a time in this process: equal requests share it
const inFlight = new Map<string, Promise<Buffer | null>>();

/**
 * A thumbnail of an image or of a PDF's first page, at most `size` pixels on its
 * longest side, as PNG: made once in a render process (rendering/render-pool.ts:
 * its own memory limit, a time limit, a fair turn among environments) and kept
 * in file storage under thumbs/<sha-256 of the bytes>-<size>, so equal bytes share
 * it and changed bytes never meet an old one. An image's header is checked against
 * the pixel limit before anything is decoded, a PDF page's structure (its images'
 * declared sizes, its nesting of forms) likewise. Bytes that could not be made a
 * thumbnail are remembered by their hash (rendering/remembered-failures.ts): the
 * next request, in any process, answers their icon at once. Anything else, or a file
 * larger than its limit, gets the icon of its type.
 */
export async function thumbnail(
  storage: FileStorage,
  source: ThumbnailSource,
  size: number,
  options: ThumbnailOptions,
): Promise<StoredFile> {
  const maxPixels = options.maxPixels ?? DEFAULT_MAX_IMAGE_PIXELS;
  const type = normalType(source.contentType);
  const pdf = type === 'application/pdf';
  const icon = () => iconFile(fileKind({ contentType: type, fileName: source.fileName }), size);
  if (!RASTER_IMAGES.has(type) && !pdf) return icon();
  const maxBytes = pdf ? PDF_RENDER_MAX_BYTES : options.pool.limits.maxImageBytes;
  if (((await storage.size(source.storageKey)) ?? Infinity) > maxBytes) return icon();
  const sha = source.sha256 ?? (await contentHash(storage, source.storageKey));
  const cacheKey = `thumbs/${sha.slice(0, 2)}/${sha}-${size}`;
  const name = `${source.fileName.replace(/\.[^.]*$/, '')}-${size}.png`;
  const etag = etagOf('thumb', sha, size);
  const cachedSize = await storage.size(cacheKey);
  if (cachedSize !== null) {
    return {
      fileName: name,
      contentType: 'image/png',
      size: cachedSize,
      etag,
      immutable: true,
      open: (range) => storage.createReadStream(cacheKey, range),
    };
  }
  if (await knownFailure(storage, sha)) return icon();
  if (!pdf) {
    // the header alone (no pixel decoded) says whether the image is past the limit: no render process needed
    const head = await storage.readHead(source.storageKey, 256 * 1024);
    const meta = await sharp(head, { failOn: 'none', limitInputPixels: false })
      .metadata()
      .catch(() => null);
    if (!meta?.width || !meta.height || meta.width * meta.height > maxPixels) return icon();
  }
  // per environment too: a request never waits in another environment's queue
  const flight = `${options.environment}:${sha}-${size}`;
  let made = inFlight.get(flight);
  if (!made) {
    made = render(storage, source.storageKey, { pdf, sha, size, maxPixels, maxBytes, cacheKey }, options).finally(() =>
      inFlight.delete(flight),
    );
    inFlight.set(flight, made);
  }
  const png = await made;
  return png ? bytesFile(png, 'image/png', name, etag) : icon();
}

async function render(
  storage: FileStorage,
  key: string,
  t: { pdf: boolean; sha: string; size: number; maxPixels: number; maxBytes: number; cacheKey: string },
  options: ThumbnailOptions,
): Promise<Buffer | null> {
  const { limits } = options.pool;
  // the bytes are read when a render process is free, so waiting jobs hold no file in memory
  const job = async (): Promise<RenderJob> => {
    const bytes = await storage.readHead(key, t.maxBytes);
    return t.pdf
      ? {
          kind: 'pdf-thumbnail',
          bytes,
          size: t.size,
          maxPixels: t.maxPixels,
          maxPaints: limits.maxPaints,
          maxContentBytes: limits.maxContentBytes,
        }
      : { kind: 'image-thumbnail', bytes, size: t.size, maxPixels: t.maxPixels };
  };
  const result = await options.pool.run(options.environment, job);
  if (result.ok) {
    await storage.writeAt(t.cacheKey, 0, result.bytes);
    return result.bytes;
  }
  if (CONTENT_FAILURES.has(result.reason)) {
    // a mark that cannot be written costs the next request a render, never this one its icon
    await rememberFailure(storage, t.sha, result.reason, result.message).catch(() => undefined);
  }
  return null;
}
