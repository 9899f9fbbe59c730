import type { TenantReader } from '@bo/db';
import { BusinessRuleError, ValidationError } from '../shared/errors.js';

/** What a document takes from the upload it is made of. */
export interface ClaimedUpload {
  id: string;
  storageKey: string;
  fileName: string;
  /** bigint, as PostgreSQL gives it (text): written back as it is */
  fileSize: string;
  contentType: string | null;
}

/** A document's file columns, from its upload. */
export function fileColumns(upload: ClaimedUpload): Record<string, unknown> {
  return {
    upload_id: upload.id,
    storage_key: upload.storageKey,
    file_name: upload.fileName,
    file_size: upload.fileSize,
    content_type: upload.contentType ?? 'application/octet-stream',
  };
}

/**
 * Takes a finished upload for a document, under a row lock so that one
 * upload becomes one document even when two requests race for it: one read
 * (the row, locked), its claim queued with the write.
 */
export async function claimUpload(sql: TenantReader, uploadQueueId: string, now: Date): Promise<ClaimedUpload> {
  const [upload] = await sql.read<ClaimedUpload & { state: string; used: boolean }>(
    `SELECT id, state, used_at IS NOT NULL AS used, storage_key AS "storageKey", file_name AS "fileName",
            file_size::text AS "fileSize", content_type AS "contentType"
       FROM chunked_upload WHERE environment_id = $1 AND upload_queue_id = $2 FOR UPDATE`,
    [uploadQueueId],
  );
  if (!upload) {
    throw new ValidationError([{ path: 'uploadQueueId', message: `no finished upload ${uploadQueueId}`, code: 'not_found' }]);
  }
  if (upload.state !== 'done') {
    throw new ValidationError([{ path: 'uploadQueueId', message: 'the upload is not done', code: 'not_done' }]);
  }
  if (upload.used) throw new BusinessRuleError(`upload_queue_id ${uploadQueueId} has already been made a document`);
  await sql.update('chunked_upload', upload.id, { used_at: now, updated_at: now });
  return upload;
}

/** Hands a document's old upload back to the clean-up, which removes its bytes. */
export async function releaseUpload(sql: TenantReader, uploadId: string, now: Date): Promise<void> {
  await sql.queue(
    'UPDATE chunked_upload SET used_at = NULL, expires_at = $3, updated_at = $3 WHERE environment_id = $1 AND id = $2',
    [uploadId, now],
  );
}
