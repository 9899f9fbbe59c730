import { z } from 'zod';
import { linkedToSchema } from './linked-to.js';

/** Write shapes of documents/document (reference PostDocument, PutDocument). */
export const createDocumentSchema = z.strictObject({
  upload_queue_id: z.string().min(1),
  title: z.string().trim().min(1, 'title must not be empty').max(255),
  document_type_id: z.string().min(1).nullable().optional(),
  linked_to: linkedToSchema,
});
export type CreateDocumentInput = z.infer<typeof createDocumentSchema>;

export const updateDocumentSchema = z.strictObject({
  title: z.string().trim().min(1, 'title must not be empty').max(255).optional(),
  document_type_id: z.string().min(1).nullable().optional(),
  /** a new finished upload replaces the file; the old bytes are removed by the upload clean-up */
  upload_queue_id: z.string().min(1).optional(),
  linked_to: linkedToSchema.optional(),
});
export type UpdateDocumentInput = z.infer<typeof updateDocumentSchema>;

export const createExternalDocumentSchema = z.strictObject({
  title: z.string().trim().min(1, 'title must not be empty').max(255),
  url: z.url({ protocol: /^https?$/, error: 'a valid http or https URL is required' }).max(2000),
  document_type_id: z.string().min(1).nullable().optional(),
  linked_to: linkedToSchema,
});
export type CreateExternalDocumentInput = z.infer<typeof createExternalDocumentSchema>;

export const updateExternalDocumentSchema = createExternalDocumentSchema.partial();
export type UpdateExternalDocumentInput = z.infer<typeof updateExternalDocumentSchema>;
