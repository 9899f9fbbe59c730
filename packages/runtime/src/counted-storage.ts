import type { Readable } from 'node:stream';
import type { FileStorage } from '@bo/domain/shared/storage';
import { recordUploadBytes } from './metrics.js';

/** the kinds of stored file that clients upload, by the first part of their key (the rest are made here: thumbnails, PDFs) */
function uploadKind(key: string): string | null {
  if (key.startsWith('uploads/')) return 'upload';
  if (key.startsWith('assets/')) return 'asset';
  return null;
}

/**
 * The process's file storage, counting the bytes written to uploaded files (chunked and streamed
 * uploads, company and user assets) for bo_upload_bytes_total. A streamed file refused for its size
 * is not counted (its write fails); one refused afterwards (its type) is, as it was received.
 */
export function countingUploadBytes(storage: FileStorage): FileStorage {
  const writeStream = storage.writeStream?.bind(storage);
  return {
    async writeAt(key: string, offset: number, data: Uint8Array, options?: { sync?: boolean }) {
      await storage.writeAt(key, offset, data, options);
      const kind = uploadKind(key);
      if (kind) recordUploadBytes(kind, data.length);
    },
    readHead: (key, length) => storage.readHead(key, length),
    readAt: (key, offset, length) => storage.readAt(key, offset, length),
    createReadStream: (key, range) => storage.createReadStream(key, range),
    size: (key) => storage.size(key),
    remove: (key) => storage.remove(key),
    ...(writeStream
      ? {
          async writeStream(key: string, source: Readable, maxBytes: number) {
            const size = await writeStream(key, source, maxBytes);
            const kind = uploadKind(key);
            if (kind) recordUploadBytes(kind, size);
            return size;
          },
        }
      : {}),
  };
}
