import { NotFoundError } from '../shared/errors.js';
import type { UserContext } from '../trpc.js';
import type { UploadStatus } from './upload.schema.js';
import { uploadStatus } from './upload.view.js';

/** GET /upload/chunked/{id}: where the upload stands, so a client can resume from `pointer`. */
export async function getUpload(ctx: UserContext, id: string): Promise<UploadStatus> {
  const u = await ctx.db.chunkedUpload.findFirst({ where: { id } });
  if (!u) throw new NotFoundError('chunked upload', id);
  return uploadStatus(u);
}
