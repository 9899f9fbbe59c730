import { z } from 'zod';
import type { AnyResource } from '../shared/resources/definition.js';
import { resourceRouter } from '../shared/resources/router.js';
import { router, userProcedure } from '../trpc.js';
import { entityQueries } from '../shared/entity/index.js';
import { documentType } from './document-type.entity.js';
import { documentResource, invoiceDocumentResource } from './document.resource.js';
import { openDocumentFile } from './download-document.js';
import { externalDocumentResource } from './external-document.resource.js';

export const documentsResources: AnyResource[] = [documentResource, externalDocumentResource];
export const invoiceDocumentResources: AnyResource[] = [invoiceDocumentResource];

export const documentsRouter = router({
  document: resourceRouter(documentResource),
  documenttype: router(entityQueries(documentType)),
  externaldocument: resourceRouter(externalDocumentResource),
  // rights are checked inside: documents, or invoices for an invoice's document
  download: userProcedure.input(z.object({ id: z.string().min(1) })).query(({ ctx, input }) => openDocumentFile(ctx, input.id)),
});

/** invoices.document: mounted under the invoices path by the app router. */
export const invoiceDocumentRouter = resourceRouter(invoiceDocumentResource);
