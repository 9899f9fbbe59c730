import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { z } from 'zod';
import { BadRequestError, UnavailableError, ValidationError } from '../shared/errors.js';
import { newEntityId } from '../shared/ids.js';
import type { FileStorage } from '../shared/storage.js';
import type { UserContext } from '../trpc.js';
import { requireStorage } from '../uploads/require-storage.js';
import { DEFAULT_MAX_IMAGE_PIXELS, DEFAULT_UPLOAD_CONFIG } from '../uploads/upload-config.js';
import type { UploadStatus } from '../uploads/upload.schema.js';
import { checkFileName, type Inspected, inspectStored } from './inspect.js';

/** A request body as the domain takes it: the bytes as they arrive, the name and type the client gave. */
export const incomingFileSchema = z.object({
  fileName: z.unknown(),
  declaredType: z.string().nullable().optional(),
  /** Content-Length, when the client sent one: refused at once when over the limit */
  declaredLength: z.number().int().min(0).nullable().optional(),
  body: z.custom<Readable>((v) => v instanceof Readable, 'a readable stream'),
});
export type IncomingFile = z.infer<typeof incomingFileSchema>;

function tooBig(limit: number): ValidationError {
  return new ValidationError([{ path: 'file', message: `files are limited to ${limit} bytes`, code: 'too_big' }]);
}

/**
 * Writes an incoming file to `key` as it arrives, then checks it; a refused
 * file (too large, empty, a type its bytes contradict, an image over the pixel
 * limit) is removed again, so nothing is stored.
 */
export async function receiveFile(
  storage: FileStorage,
  key: string,
  file: IncomingFile,
  limits: { maxBytes: number; maxPixels: number; allowed?: readonly string[] },
): Promise<{ fileName: string; size: number; inspected: Inspected }> {
  const fileName = checkFileName(file.fileName);
  if (!storage.writeStream) throw new UnavailableError('this file storage cannot take streamed uploads');
  if (file.declaredLength != null && file.declaredLength > limits.maxBytes) throw tooBig(limits.maxBytes);
  let size: number;
  try {
    size = await storage.writeStream(key, file.body, limits.maxBytes);
  } catch (err) {
    if ((err as Error)?.name === 'FileTooLargeError') throw tooBig(limits.maxBytes);
    throw err;
  }
  try {
    // a body that ended before its declared length was cut short (the client closed early):
    // what arrived is not the file, whatever it looks like
    if (file.declaredLength != null && size !== file.declaredLength) {
      throw new BadRequestError(
        `the body was cut short: ${size} of the ${file.declaredLength} bytes its Content-Length declares`,
      );
    }
    if (size === 0) throw new ValidationError([{ path: 'file', message: 'the file is empty', code: 'too_small' }]);
    const inspected = await inspectStored(storage, key, {
      fileName,
      declaredType: file.declaredType,
      maxPixels: limits.maxPixels,
      allowed: limits.allowed,
    });
    return { fileName, size, inspected };
  } catch (err) {
    await storage.remove(key);
    throw err;
  }
}

/** The hex SHA-256 of stored bytes, read as a stream. */
export async function storedSha256(storage: FileStorage, key: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of storage.createReadStream(key)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * POST storage/uploadstream: the request body is the file. Its bytes go to disk
 * as they arrive (flat memory, whatever the size), and the answer is a done
 * upload whose upload_queue_id makes a document exactly as a finished chunked
 * upload's does.
 */
export async function streamUpload(ctx: UserContext, file: IncomingFile): Promise<UploadStatus> {
  const storage = requireStorage(ctx);
  const config = ctx.services?.uploads ?? DEFAULT_UPLOAD_CONFIG;
  const hex = randomBytes(16).toString('hex');
  const storageKey = `uploads/${hex.slice(0, 2)}/${hex}`;
  const received = await receiveFile(storage, storageKey, file, {
    maxBytes: config.maxFileSize,
    maxPixels: config.maxImagePixels ?? DEFAULT_MAX_IMAGE_PIXELS,
  });
  const now = ctx.clock.now();
  try {
    const id = `chunkedupload:${hex}`;
    const uploadQueueId = newEntityId('uploadqueue');
    // one statement through the tenant reader; the answer is made of what was written
    await ctx.sql.write(
      `INSERT INTO chunked_upload (environment_id, id, user_id, file_name, file_size, received, state, storage_key,
                                   upload_queue_id, content_type, expires_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $5, 'done', $6, $7, $8, $9, $10)`,
      [
        id,
        ctx.principal.userId,
        received.fileName,
        received.size,
        storageKey,
        uploadQueueId,
        received.inspected.contentType,
        new Date(now.getTime() + config.expirySeconds * 1000),
        now,
      ],
    );
    return { id, state: 'done', received: received.size, fileSize: received.size, uploadQueueId };
  } catch (err) {
    await storage.remove(storageKey);
    throw err;
  }
}
