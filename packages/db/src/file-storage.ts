import { createReadStream, mkdirSync } from 'node:fs';
import { open, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';

/**
 * The default file storage (the domain's FileStorage port): one file per key
 * under a root folder, DATA_DIR/files. Keys are relative paths of
 * [a-z0-9_-] segments, so no key can leave the root.
 */
export class FilesystemStorage {
  constructor(readonly root: string) {
    mkdirSync(root, { recursive: true });
  }

  private file(key: string): string {
    if (!/^[a-z0-9_-]+(\/[a-z0-9_-]+)*$/.test(key)) throw new Error(`invalid storage key "${key}"`);
    return path.join(this.root, key);
  }

  async writeAt(key: string, offset: number, data: Uint8Array): Promise<void> {
    const file = this.file(key);
    mkdirSync(path.dirname(file), { recursive: true });
    // 'a+' would ignore the position; open for update, creating the file when missing
    const fh = await open(file, 'r+').catch(async (err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return open(file, 'w+');
      throw err;
    });
    try {
      let written = 0;
      while (written < data.length) {
        const { bytesWritten } = await fh.write(data, written, data.length - written, offset + written);
        written += bytesWritten;
      }
      // drop bytes of an earlier write whose commit never happened
      await fh.truncate(offset + data.length);
    } finally {
      await fh.close();
    }
  }

  readHead(key: string, length: number): Promise<Buffer> {
    return this.readAt(key, 0, length);
  }

  async readAt(key: string, offset: number, length: number): Promise<Buffer> {
    const fh = await open(this.file(key), 'r');
    try {
      const buf = Buffer.alloc(length);
      const { bytesRead } = await fh.read(buf, 0, length, offset);
      return buf.subarray(0, bytesRead);
    } finally {
      await fh.close();
    }
  }

  createReadStream(key: string): Readable {
    return createReadStream(this.file(key));
  }

  async size(key: string): Promise<number | null> {
    try {
      return (await stat(this.file(key))).size;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async remove(key: string): Promise<void> {
    await rm(this.file(key), { force: true });
  }
}
