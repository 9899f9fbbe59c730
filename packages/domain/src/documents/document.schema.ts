import { z } from 'zod';
import { linkedToInput } from './linked-to.js';

/** Write shapes of a document, in domain terms. */
export const createDocumentInput = z.strictObject({
  uploadQueueId: z.string().min(1),
  title: z.string().trim().min(1, 'title must not be empty').max(255),
  documentTypeId: z.string().min(1).nullable().optional(),
  linkedTo: linkedToInput,
});
export type CreateDocumentInput = z.infer<typeof createDocumentInput>;

export const updateDocumentInput = z.strictObject({
  title: z.string().trim().min(1, 'title must not be empty').max(255).optional(),
  documentTypeId: z.string().min(1).nullable().optional(),
  /** a new finished upload replaces the file; the old bytes are removed by the upload clean-up */
  uploadQueueId: z.string().min(1).optional(),
  linkedTo: linkedToInput.optional(),
});
export type UpdateDocumentInput = z.infer<typeof updateDocumentInput>;

export const createExternalDocumentInput = z.strictObject({
  title: z.string().trim().min(1, 'title must not be empty').max(255),
  url: z.url({ protocol: /^https?$/, error: 'a valid http or https URL is required' }).max(2000),
  documentTypeId: z.string().min(1).nullable().optional(),
  linkedTo: linkedToInput,
});
export type CreateExternalDocumentInput = z.infer<typeof createExternalDocumentInput>;

export const updateExternalDocumentInput = createExternalDocumentInput.partial();
export type UpdateExternalDocumentInput = z.infer<typeof updateExternalDocumentInput>;
