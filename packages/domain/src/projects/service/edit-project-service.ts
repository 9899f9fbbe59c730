import type { EntityUpdate } from '../../shared/entity/index.js';
import type { UpdateProjectServiceInput } from './project-service.schema.js';
import { saveProjectService, serviceForEdit } from './save-project-service.js';

/**
 * Edits an invoiceable service: 422 when the service is of another kind, may no
 * longer be edited (invoiced, or its project closed) or the edit would leave it invalid.
 */
export const editProjectService: EntityUpdate<UpdateProjectServiceInput> = {
  async run(w, id, input) {
    const existing = await serviceForEdit(w.sql, id, 'invoiceable');
    await saveProjectService(w, { kind: 'invoiceable', existing }, input);
  },
};
