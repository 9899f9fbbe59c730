import type { Models } from '@bo/db';
import type { UploadStatus } from './upload.schema.js';

/** The status of an upload row; the queued file's id only when it is done. */
export function uploadStatus(u: Models.ChunkedUploadModel): UploadStatus {
  return {
    id: u.id,
    state: u.state,
    received: Number(u.received),
    fileSize: Number(u.fileSize),
    uploadQueueId: u.state === 'done' && u.uploadQueueId ? u.uploadQueueId : null,
  };
}
