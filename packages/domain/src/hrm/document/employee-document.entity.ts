import { z } from 'zod';
import { type documentType, documentTypeFor } from '../../documents/document-type.entity.js';
import { defineEntity, f, type TargetEntity } from '../../shared/entity/index.js';

/**
 * HRM documents (v2 hrm/document, hrm/documenttype): the document store's rows linked
 * to an employee, and the document types meant for employees, read under the hrm right.
 * Documents are written through the document store (documents/document).
 */
export const employeeDocumentType: typeof documentType = {
  ...documentTypeFor('hrm'),
  scope: () => ({ path: 'isForEmployee', op: 'eq', value: 'true' }),
};
export type EmployeeDocumentType = z.infer<typeof employeeDocumentType.schema>;

export const employeeDocument = defineEntity({
  type: 'document',
  table: 'document',
  module: 'hrm',
  nameField: 'title',
  scope: () => ({ path: 'linkedEmployeeId', op: 'eq', value: '*' }),
  fields: {
    id: f.id(),
    title: f.requiredString(),
    documentType: f.ref((): TargetEntity => employeeDocumentType, z.object({ id: z.string(), label: z.string() }), {
      column: 'document_type_id',
    }),
    linkedEmployeeId: f.string(),
    createdById: f.string(),
    fileName: f.requiredString(),
    fileSize: f.computed('number', z.number(), (t) => `${t}.file_size::float8`),
    contentType: f.requiredString(),
    createdAt: f.createdAt(),
    updatedAt: f.updatedAt(),
  },
});
export type EmployeeDocument = z.infer<typeof employeeDocument.schema>;
