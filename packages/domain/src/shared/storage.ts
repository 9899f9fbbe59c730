import type { Readable } from 'node:stream';

/**
 * The domain's port to file storage (bytes of uploads and documents). The
 * default implementation writes files under DATA_DIR/files (packages/db,
 * file-storage.ts); anything with these operations can replace it.
 */
export interface FileStorage {
  /**
   * Writes `data` at byte `offset` of the file `key` (created when missing) and
   * cuts the file there: bytes past the end of this write (left by a write whose
   * database commit never happened) are dropped, so the file is always exactly
   * the confirmed prefix plus this chunk. With `sync`, the file is on the disk when it
   * resolves (fdatasync), so it survives a crash of the machine.
   */
  writeAt(key: string, offset: number, data: Uint8Array, options?: { sync?: boolean }): Promise<void>;
  /** the first `length` bytes (fewer when the file is shorter) */
  readHead(key: string, length: number): Promise<Buffer>;
  /** `length` bytes from `offset` (fewer when the file is shorter) */
  readAt(key: string, offset: number, length: number): Promise<Buffer>;
  /** streams the file (or the inclusive byte range `start`..`end` of it); never loads it whole */
  createReadStream(key: string, range?: { start: number; end: number }): Readable;
  /**
   * Writes `source` as the whole file `key` as its bytes arrive (backpressure keeps
   * memory flat) and answers the byte count. More than `maxBytes` bytes: the
   * write stops, the partial file is removed and it rejects with FileTooLargeError.
   * Optional: storage without it cannot take streamed uploads.
   */
  writeStream?(key: string, source: Readable, maxBytes: number): Promise<number>;
  size(key: string): Promise<number | null>;
  /** removes the file; a missing file is not an error */
  remove(key: string): Promise<void>;
}

/** A streamed write passed its byte limit (FileStorage.writeStream). */
export class FileTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`the file is larger than ${maxBytes} bytes`);
    this.name = 'FileTooLargeError';
  }
}
