import { createReadStream, createWriteStream, mkdirSync } from 'node:fs';
import { open, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** A streamed write passed its limit; the domain's FileStorage port names it FileTooLargeError by `name`. */
class FileTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`the file is larger than ${maxBytes} bytes`);
    this.name = 'FileTooLargeError';
  }
}

async function syncFolder(folder: string): Promise<void> {
  const fh = await open(folder, 'r');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}

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

  async writeAt(key: string, offset: number, data: Uint8Array, options: { sync?: boolean } = {}): Promise<void> {
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
      if (options.sync) await fh.datasync();
    } finally {
      await fh.close();
    }
    // the file's name too, so that a file created by this write is found after a crash
    if (options.sync) await syncFolder(path.dirname(file));
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

  createReadStream(key: string, range?: { start: number; end: number }): Readable {
    return createReadStream(this.file(key), range ? { start: range.start, end: range.end } : undefined);
  }

  /** the whole file from a stream, as it arrives (backpressure keeps memory flat); removed again on any failure */
  async writeStream(key: string, source: Readable, maxBytes: number): Promise<number> {
    const file = this.file(key);
    mkdirSync(path.dirname(file), { recursive: true });
    let count = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _enc, done) {
        count += chunk.length;
        if (count > maxBytes) done(new FileTooLargeError(maxBytes));
        else done(null, chunk);
      },
    });
    try {
      await pipeline(source, counter, createWriteStream(file));
      return count;
    } catch (err) {
      await rm(file, { force: true });
      throw err;
    }
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
