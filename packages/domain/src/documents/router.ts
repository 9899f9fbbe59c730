import { z } from 'zod';
import type { AnyResource } from '../shared/resources/definition.js';
import { resourceRouter } from '../shared/resources/router.js';
import { router, userProcedure } from '../trpc.js';
import { documentTypeResource } from './document-type.resource.js';
import { documentResource, invoiceDocumentResource } from './document.resource.js';
import { openDocumentFile } from './download-document.js';
import { externalDocumentResource } from './external-document.resource.js';

export const documentsResources: AnyResource[] = [documentResource, documentTypeResource, externalDocumentResource];
export const invoiceDocumentResources: AnyResource[] = [invoiceDocumentResource];

export const documentsRouter = router({
  document: resourceRouter(documentResource),
  documenttype: resourceRouter(documentTypeResource),
  externaldocument: resourceRouter(externalDocumentResource),
  // rights are checked inside: documents, or invoices for an invoice's document
  download: userProcedure.input(z.object({ id: z.string().min(1) })).query(({ ctx, input }) => openDocumentFile(ctx, input.id)),
});

/** invoices.document: mounted under the invoices path by the app router. */
export const invoiceDocumentRouter = resourceRouter(invoiceDocumentResource);
