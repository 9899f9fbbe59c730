import type { Models } from '@bo/db';

/** Where a browser with a web session downloads a file; API tokens are refused there (README). */
export function browserDownloadPath(kind: 'upload' | 'document', id: string): string {
  return `/web/download/${kind}/${encodeURIComponent(id)}`;
}

/** The v2 answer of PUT /upload/chunked/{id} (and GET): upload_queue_id and download_url only when done. */
export function uploadStatusV2(u: Models.ChunkedUploadModel): Record<string, unknown> {
  const out: Record<string, unknown> = {
    chunked_upload_id: u.id,
    pointer: Number(u.received),
    state: u.state,
    file_size_current: Number(u.received),
    file_size_expected: Number(u.fileSize),
  };
  if (u.state === 'done' && u.uploadQueueId) {
    out.upload_queue_id = u.uploadQueueId;
    out.download_url = browserDownloadPath('upload', u.uploadQueueId);
  }
  return out;
}
