import type { EntityRemove } from '../shared/entity/index.js';
import { releaseUpload } from './document.write.js';
import { assertNotRendered } from './rendered-document.js';

/** Deletes a document: its attachments go with it; its bytes go to the upload clean-up. */
export const removeDocument: EntityRemove = async (w, id) => {
  await assertNotRendered(w, id);
  const doc = await w.tx.document.findFirst({ where: { id } });
  if (!doc) return;
  await w.tx.timelineAttachment.deleteMany({ where: { documentId: id } });
  await w.tx.document.delete({ where: { id } });
  await releaseUpload(w, doc.uploadId, w.now);
};
