import type { Models } from '@bo/db';
import type { UploadStatus } from './upload.schema.js';

/** Where a browser with a web session downloads a file; API tokens are refused there (README). */
export function browserDownloadPath(kind: 'upload' | 'document', id: string): string {
  return `/web/download/${kind}/${encodeURIComponent(id)}`;
}

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
