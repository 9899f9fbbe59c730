import { createDocument } from '../../documents/create-document.js';
import type { CreateDocumentInput, UpdateDocumentInput } from '../../documents/document.schema.js';
import type { LinkedToInput } from '../../documents/linked-to.js';
import { updateDocument } from '../../documents/update-document.js';
import type { EntityCreate, EntityUpdate } from '../../shared/entity/index.js';
import { ValidationError } from '../../shared/errors.js';

/** An hrm document is linked to an employee: the document store's writes, held to that. */
function assertEmployeeLink(linkedTo: LinkedToInput | undefined): void {
  if (linkedTo === undefined) return;
  const link = Array.isArray(linkedTo) ? linkedTo[0] : linkedTo;
  if (!link?.employeeId) {
    throw new ValidationError([
      { path: 'linkedTo', message: 'A document of hrm/document is linked to an employee (employee_id).', code: 'invalid' },
    ]);
  }
}

export const createEmployeeDocument: EntityCreate<CreateDocumentInput> = {
  ...createDocument,
  async run(w, input) {
    assertEmployeeLink(input.linkedTo);
    return createDocument.run(w, input);
  },
};

export const updateEmployeeDocument: EntityUpdate<UpdateDocumentInput> = {
  ...updateDocument,
  async run(w, id, input) {
    assertEmployeeLink(input.linkedTo);
    return updateDocument.run(w, id, input);
  },
};
