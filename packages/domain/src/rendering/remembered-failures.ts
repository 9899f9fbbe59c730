import type { FileStorage } from '../shared/storage.js';

/**
 * Bytes that could not be rendered, remembered by their content hash in file
 * storage beside the thumbnails (thumbs/<sha-256>-failed, with why): storage is
 * shared by every process of the service, so a known bomb costs a file's
 * existence check the second time, in any of them. The same bytes fail the same
 * way at every size, so one mark covers them all. Removing the file (or the
 * thumbs folder) forgets it.
 */
export function failureKey(sha256: string): string {
  return `thumbs/${sha256.slice(0, 2)}/${sha256}-failed`;
}

export async function knownFailure(storage: FileStorage, sha256: string): Promise<boolean> {
  return (await storage.size(failureKey(sha256))) !== null;
}

export async function rememberFailure(storage: FileStorage, sha256: string, reason: string, message: string): Promise<void> {
  const note = JSON.stringify({ reason, message, at: new Date().toISOString() });
  await storage.writeAt(failureKey(sha256), 0, Buffer.from(note));
}
