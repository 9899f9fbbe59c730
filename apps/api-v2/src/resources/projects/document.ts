import { areaDocumentV2 } from '../documents/documents.js';
import { areaDocumentTypeV2 } from '../documents/documenttype.js';

/** projects/document: the documents linked to a project (reference: GetDocument, PostDocument, PutDocument). */
export const projectDocumentV2 = areaDocumentV2('projects/document', (c) => c.projects.document);

/** projects/documenttype: the document types meant for projects. */
export const projectDocumentTypeV2 = areaDocumentTypeV2('projects/documenttype', (c) => c.projects.documenttype);
