import type { Models } from '@bo/db';
import type { WriteContext } from '../shared/entity/index.js';
import { BusinessRuleError, ValidationError } from '../shared/errors.js';

/**
 * Takes a finished upload for a document, under a row lock so that one
 * upload becomes one document even when two requests race for it.
 */
export async function claimUpload(
  { tx, sql }: WriteContext,
  uploadQueueId: string,
  now: Date,
): Promise<Models.ChunkedUploadModel> {
  const rows = await sql.read<{ id: string }>(
    'SELECT id FROM chunked_upload WHERE environment_id = $1 AND upload_queue_id = $2 FOR UPDATE',
    [uploadQueueId],
  );
  const id = rows[0]?.id;
  if (!id) {
    throw new ValidationError([{ path: 'uploadQueueId', message: `no finished upload ${uploadQueueId}`, code: 'not_found' }]);
  }
  const upload = await tx.chunkedUpload.findFirst({ where: { id } });
  if (upload?.state !== 'done') {
    throw new ValidationError([{ path: 'uploadQueueId', message: 'the upload is not done', code: 'not_done' }]);
  }
  if (upload.usedAt) throw new BusinessRuleError(`upload_queue_id ${uploadQueueId} has already been made a document`);
  await tx.chunkedUpload.update({ where: { id }, data: { usedAt: now, updatedAt: now } });
  return upload;
}

/** Hands a document's old upload back to the clean-up, which removes its bytes. */
export async function releaseUpload({ tx }: WriteContext, uploadId: string, now: Date): Promise<void> {
  await tx.chunkedUpload.updateMany({ where: { id: uploadId }, data: { usedAt: null, expiresAt: now, updatedAt: now } });
}
