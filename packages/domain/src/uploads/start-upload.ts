import { randomBytes } from 'node:crypto';
import { SCOPED_ENVIRONMENT } from '@bo/db';
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
  await ctx.db.chunkedUpload.create({
    data: {
      id,
      environmentId: SCOPED_ENVIRONMENT,
      userId: ctx.principal.userId,
      fileName: input.fileName,
      fileSize: BigInt(input.fileSize),
      storageKey: `uploads/${hex.slice(0, 2)}/${hex}`,
      expiresAt: new Date(now.getTime() + config.expirySeconds * 1000),
    },
  });
  return { id };
}
