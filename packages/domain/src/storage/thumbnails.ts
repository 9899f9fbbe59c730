import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import sharp from 'sharp';
import { ValidationError } from '../shared/errors.js';
import type { FileStorage } from '../shared/storage.js';
import { DEFAULT_MAX_IMAGE_PIXELS } from '../uploads/upload-config.js';
import { fileIconSvg, fileKind } from './file-kind.js';
import { normalType, RASTER_IMAGES } from './inspect.js';
import { PDF_RENDER_MAX_BYTES, renderPdfFirstPage } from './pdf-page.js';
import { etagOf, type StoredFile } from './stored-file.js';

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

/**
 * A thumbnail of an image, at most `size` pixels on its longest side, as PNG:
 * made with sharp (libvips) once and kept in file storage under
 * thumbs/<sha-256 of the bytes>-<size>, so equal bytes share it and changed
 * bytes never meet an old one. The image's header is checked against the pixel
 * limit before anything is decoded. A PDF's first page is rendered by pdf.js
 * (up to PDF_RENDER_MAX_BYTES) and kept the same way; anything else, or a PDF
 * that cannot be rendered, gets the icon of its type.
 */
export async function thumbnail(
  storage: FileStorage,
  source: ThumbnailSource,
  size: number,
  maxPixels: number = DEFAULT_MAX_IMAGE_PIXELS,
): Promise<StoredFile> {
  const type = normalType(source.contentType);
  const pdf = type === 'application/pdf';
  const icon = () => iconFile(fileKind({ contentType: type, fileName: source.fileName }), size);
  if (!RASTER_IMAGES.has(type) && !pdf) return icon();
  if (pdf && ((await storage.size(source.storageKey)) ?? Infinity) > PDF_RENDER_MAX_BYTES) return icon();
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
  if (pdf) {
    const bytes = await storage.readHead(source.storageKey, PDF_RENDER_MAX_BYTES);
    const page = await renderPdfFirstPage(new Uint8Array(bytes), size);
    if (!page) return icon();
    await storage.writeAt(cacheKey, 0, page);
    return bytesFile(page, 'image/png', name, etag);
  }
  const head = await storage.readHead(source.storageKey, 256 * 1024);
  const meta = await sharp(head, { failOn: 'none', limitInputPixels: false })
    .metadata()
    .catch(() => null);
  if (!meta?.width || !meta.height || meta.width * meta.height > maxPixels) return iconFile('image', size);
  const resize = sharp({ failOn: 'none', limitInputPixels: maxPixels })
    .rotate()
    .resize(size, size, { fit: 'inside', withoutEnlargement: true })
    .png();
  storage.createReadStream(source.storageKey).pipe(resize);
  const png = await resize.toBuffer().catch(() => null);
  if (!png) return iconFile('image', size);
  await storage.writeAt(cacheKey, 0, png);
  return bytesFile(png, 'image/png', name, etag);
}
