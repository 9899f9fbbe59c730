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
   * the confirmed prefix plus this chunk.
   */
  writeAt(key: string, offset: number, data: Uint8Array): Promise<void>;
  /** the first `length` bytes (fewer when the file is shorter) */
  readHead(key: string, length: number): Promise<Buffer>;
  /** `length` bytes from `offset` (fewer when the file is shorter) */
  readAt(key: string, offset: number, length: number): Promise<Buffer>;
  /** streams the file; never loads it whole */
  createReadStream(key: string): Readable;
  size(key: string): Promise<number | null>;
  /** removes the file; a missing file is not an error */
  remove(key: string): Promise<void>;
}
