import { z } from 'zod';
import { entityCreate, entityDelete, entityQueries, entityUpdate } from '../shared/entity/index.js';
import { router, userProcedure } from '../trpc.js';
import { createDocument } from './create-document.js';
import { createExternalDocument } from './create-external-document.js';
import { document, externalDocument } from './document.entity.js';
import {
  createDocumentInput,
  createExternalDocumentInput,
  updateDocumentInput,
  updateExternalDocumentInput,
} from './document.schema.js';
import { documentType } from './document-type.entity.js';
import { documentFileSchema, openDocumentFile } from './download-document.js';
import { removeDocument } from './remove-document.js';
import { updateDocument } from './update-document.js';
import { updateExternalDocument } from './update-external-document.js';

export const documentsRouter = router({
  document: router({
    ...entityQueries(document),
    create: entityCreate(document, createDocumentInput, createDocument),
    update: entityUpdate(document, updateDocumentInput, updateDocument),
    delete: entityDelete(document, removeDocument),
  }),
  documenttype: router(entityQueries(documentType)),
  externaldocument: router({
    ...entityQueries(externalDocument),
    create: entityCreate(externalDocument, createExternalDocumentInput, createExternalDocument),
    update: entityUpdate(externalDocument, updateExternalDocumentInput, updateExternalDocument),
    delete: entityDelete(externalDocument),
  }),
  // rights are checked inside: documents, or invoices for an invoice's document
  download: userProcedure
    .input(z.object({ id: z.string().min(1) }))
    .output(documentFileSchema)
    .query(({ ctx, input }) => openDocumentFile(ctx, input.id)),
});
