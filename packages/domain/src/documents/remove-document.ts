import type { WriteContext } from '../shared/resources/definition.js';
import { releaseUpload } from './document.write.js';

/** DELETE documents/document/{id}: its attachments go with it; its bytes go to the upload clean-up. */
export async function removeDocument({ tx, now }: WriteContext, id: string): Promise<void> {
  const doc = await tx.document.findFirst({ where: { id } });
  if (!doc) return;
  await tx.timelineAttachment.deleteMany({ where: { documentId: id } });
  await tx.document.delete({ where: { id } });
  await releaseUpload(tx, doc.uploadId, now);
}
