import { randomBytes } from 'node:crypto';
import { SCOPED_ENVIRONMENT } from '@bo/db';
import { ValidationError } from '../shared/errors.js';
import type { UserContext } from '../trpc.js';
import { DEFAULT_UPLOAD_CONFIG } from './upload-config.js';
import type { StartUploadInput } from './upload.schema.js';

/** POST /upload/chunked: an empty upload that accepts chunks until file_size bytes have come. */
export async function startUpload(ctx: UserContext, input: StartUploadInput): Promise<{ chunked_upload_id: string }> {
  const config = ctx.services?.uploads ?? DEFAULT_UPLOAD_CONFIG;
  if (input.file_size > config.maxFileSize) {
    throw new ValidationError([
      { path: 'file_size', message: `files are limited to ${config.maxFileSize} bytes`, code: 'too_big' },
    ]);
  }
  const hex = randomBytes(16).toString('hex');
  const id = `chunkedupload:${hex}`;
  const now = ctx.clock.now();
  await ctx.db.chunkedUpload.create({
    data: {
      id,
      environmentId: SCOPED_ENVIRONMENT,
      userId: ctx.principal.userId,
      fileName: input.file_name,
      fileSize: BigInt(input.file_size),
      storageKey: `uploads/${hex.slice(0, 2)}/${hex}`,
      expiresAt: new Date(now.getTime() + config.expirySeconds * 1000),
    },
  });
  return { chunked_upload_id: id };
}
