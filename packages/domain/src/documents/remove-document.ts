import type { EntityRemove } from '../shared/entity/index.js';
import { releaseUpload } from './document.write.js';
import { assertNotRendered } from './rendered-document.js';

/** Deletes a document: its attachments go with it; its bytes go to the upload clean-up. */
export const removeDocument: EntityRemove = async ({ sql, now }, id) => {
  const uploadId = await assertNotRendered(sql, id);
  if (uploadId === null) return;
  await sql.queue('DELETE FROM timeline_attachment WHERE environment_id = $1 AND document_id = $2', [id]);
  await sql.deleteById('document', id);
  await releaseUpload(sql, uploadId, now);
};
