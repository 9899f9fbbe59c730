import { randomBytes } from 'node:crypto';
import { ValidationError } from '../shared/errors.js';
import type { UserContext } from '../trpc.js';
import { DEFAULT_UPLOAD_CONFIG } from './upload-config.js';
import type { StartUploadInput } from './upload.schema.js';

/** POST /upload/chunked: an empty upload that accepts chunks until its file size in bytes have come. */
export async function startUpload(ctx: UserContext, input: StartUploadInput): Promise<{ id: string }> {
  const config = ctx.services?.uploads ?? DEFAULT_UPLOAD_CONFIG;
  if (input.fileSize > config.maxFileSize) {
    throw new ValidationError([
      { path: 'fileSize', message: `files are limited to ${config.maxFileSize} bytes`, code: 'too_big' },
    ]);
  }
  const hex = randomBytes(16).toString('hex');
  const id = `chunkedupload:${hex}`;
  const now = ctx.clock.now();
  // one statement through the tenant reader; updated_at as Prisma's @updatedAt would set it
  await ctx.sql.write(
    `INSERT INTO chunked_upload (environment_id, id, user_id, file_name, file_size, storage_key, expires_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      id,
      ctx.principal.userId,
      input.fileName,
      input.fileSize,
      `uploads/${hex.slice(0, 2)}/${hex}`,
      new Date(now.getTime() + config.expirySeconds * 1000),
      now,
    ],
  );
  return { id };
}
