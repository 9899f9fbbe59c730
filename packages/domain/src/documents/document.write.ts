import type { Models } from '@bo/db';
import { BusinessRuleError, ValidationError } from '../shared/errors.js';
import { assertReferencesExist } from '../shared/references.js';
import type { Db } from '../shared/resources/definition.js';

/**
 * Takes a finished upload for a document, under a row lock so that one
 * upload_queue_id becomes one document even when two requests race for it.
 */
export async function claimUpload(
  tx: Db,
  environmentId: string,
  uploadQueueId: string,
  now: Date,
): Promise<Models.ChunkedUploadModel> {
  const rows = await tx.$queryRawUnsafe<{ id: string }[]>(
    `SELECT id FROM chunked_upload WHERE upload_queue_id = $1 AND environment_id = $2 FOR UPDATE`,
    uploadQueueId,
    environmentId,
  );
  const id = rows[0]?.id;
  if (!id) {
    throw new ValidationError([{ path: 'upload_queue_id', message: `no finished upload ${uploadQueueId}`, code: 'not_found' }]);
  }
  const upload = await tx.chunkedUpload.findFirst({ where: { id } });
  if (upload?.state !== 'done') {
    throw new ValidationError([{ path: 'upload_queue_id', message: 'the upload is not done', code: 'not_done' }]);
  }
  if (upload.usedAt) throw new BusinessRuleError(`upload_queue_id ${uploadQueueId} has already been made a document`);
  await tx.chunkedUpload.update({ where: { id }, data: { usedAt: now, updatedAt: now } });
  return upload;
}

/** Hands a document's old upload back to the clean-up, which removes its bytes. */
export async function releaseUpload(tx: Db, uploadId: string, now: Date): Promise<void> {
  await tx.chunkedUpload.updateMany({ where: { id: uploadId }, data: { usedAt: null, expiresAt: now, updatedAt: now } });
}

export async function assertDocumentType(tx: Db, environmentId: string, id: string | null | undefined): Promise<void> {
  await assertReferencesExist(tx, environmentId, [{ path: 'document_type_id', table: 'document_type', id }]);
}
