import { fileTypeFromBuffer } from 'file-type';
import sharp from 'sharp';
import { ValidationError } from '../shared/errors.js';
import type { FileStorage } from '../shared/storage.js';
import { extensionOf } from './file-kind.js';

/** How many bytes of a file are read to tell its type and an image's dimensions. */
const HEAD_BYTES = 256 * 1024;

/** Content types that are the same thing under two names. */
const ALIASES: Record<string, string> = {
  'image/jpg': 'image/jpeg',
  'image/pjpeg': 'image/jpeg',
  'image/x-png': 'image/png',
  'application/x-pdf': 'application/pdf',
  'application/x-zip-compressed': 'application/zip',
};

/** Declared types that claim nothing about the bytes. */
const GENERIC = new Set(['', 'application/octet-stream', 'binary/octet-stream', 'application/unknown']);

/** Extensions whose bytes file-type recognises, with the type they must be. */
const EXTENSION_TYPES: Record<string, string> = {
  pdf: 'application/pdf',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  tif: 'image/tiff',
  tiff: 'image/tiff',
  zip: 'application/zip',
};

/** Images whose dimensions are checked and which thumbnails are made of. */
export const RASTER_IMAGES = new Set([
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/tiff',
  'image/avif',
  'image/heic',
]);

export function normalType(type: string | null | undefined): string {
  const t = (type ?? '').toLowerCase().split(';')[0]?.trim() ?? '';
  return ALIASES[t] ?? t;
}

function refuse(path: string, message: string, code: string): ValidationError {
  return new ValidationError([{ path, message, code }]);
}

/**
 * A file name as a name, never a path: no separators, no parent or current
 * folder, no control characters, no leading dot or trailing dot/space, at most 255.
 */
export function checkFileName(name: unknown, path = 'file_name'): string {
  if (typeof name !== 'string' || name.trim() === '') throw refuse(path, 'a file name is required', 'required');
  const n = name.normalize('NFC').trim();
  if (n.length > 255) throw refuse(path, 'a file name is at most 255 characters', 'too_big');
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (/[/\\\u0000-\u001f\u007f]/.test(n) || n === '.' || n === '..' || n.startsWith('.') || /[. ]$/.test(n) || n.includes('..')) {
    throw refuse(
      path,
      'the file name may not be a path: no / or \\, no .., no leading dot, no control characters',
      'invalid_file_name',
    );
  }
  return n;
}

export interface Inspected {
  /** the type the bytes show, else the declared one, else application/octet-stream */
  contentType: string;
  width?: number;
  height?: number;
}

/**
 * Checks a stored file against what was said of it, before anything keeps it:
 * the declared content type and the name's extension must not be contradicted
 * by the bytes (magic numbers, file-type); an image's dimensions are read from
 * its header only and refused past `maxPixels` (a decompression bomb is never
 * decoded); `allowed`, when given, lists the only types taken.
 */
export async function inspectStored(
  storage: FileStorage,
  key: string,
  said: { fileName: string; declaredType?: string | null; maxPixels: number; allowed?: readonly string[] },
): Promise<Inspected> {
  const head = await storage.readHead(key, HEAD_BYTES);
  const detected = await fileTypeFromBuffer(head);
  const shown = detected ? normalType(detected.mime) : null;
  const declared = normalType(said.declaredType);
  if (!GENERIC.has(declared)) {
    if (
      shown
        ? shown !== declared
        : declared.startsWith('image/') || declared === 'application/pdf' || declared === 'application/zip'
    ) {
      throw refuse(
        'content_type',
        `the bytes are ${shown ?? 'not of a known binary type'}, not ${declared} as declared`,
        'type_mismatch',
      );
    }
  }
  const expected = EXTENSION_TYPES[extensionOf(said.fileName)];
  if (expected && shown !== expected && !(expected === 'application/zip' && shown?.startsWith('application/'))) {
    throw refuse('file_name', `the name says ${expected}, the bytes are ${shown ?? 'of no known binary type'}`, 'type_mismatch');
  }
  const contentType = shown ?? (GENERIC.has(declared) ? 'application/octet-stream' : declared);
  if (said.allowed && !said.allowed.includes(contentType)) {
    throw refuse('content_type', `only ${said.allowed.join(', ')} are taken here, not ${contentType}`, 'type_not_allowed');
  }
  if (!RASTER_IMAGES.has(contentType)) return { contentType };
  // the header is enough for the dimensions; sharp reads it without decoding pixels
  const meta = await sharp(head, { failOn: 'none', limitInputPixels: false })
    .metadata()
    .catch(() => null);
  if (!meta?.width || !meta.height) throw refuse('file', 'the image header cannot be read', 'invalid_image');
  const pages = meta.pages ?? 1;
  if (meta.width * meta.height * pages > said.maxPixels) {
    throw refuse(
      'file',
      `the image is ${meta.width} × ${meta.height}${pages > 1 ? ` × ${pages} frames` : ''} pixels; at most ${said.maxPixels} pixels are taken`,
      'image_too_large',
    );
  }
  return { contentType, width: meta.width, height: meta.height };
}
