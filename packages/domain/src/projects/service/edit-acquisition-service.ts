import type { EntityUpdate } from '../../shared/entity/index.js';
import { BusinessRuleError } from '../../shared/errors.js';
import type { UpdateAcquisitionServiceInput } from './project-service.schema.js';
import { saveProjectService, serviceForEdit } from './save-project-service.js';

/** Edits an acquisition service, only while it is still in acquisition; its cost types stay as they are. */
export const editAcquisitionService: EntityUpdate<UpdateAcquisitionServiceInput> = {
  async run(w, id, input) {
    const existing = await serviceForEdit(w.sql, id, 'acquisition');
    if (existing.phase !== 'acquisition') {
      throw new BusinessRuleError(
        `project service ${id} has been approved into execution and is no longer an acquisition to edit`,
      );
    }
    const costTypes = input.hourTypes === undefined ? undefined : [];
    await saveProjectService(w, { kind: 'acquisition', existing }, { ...input, costTypes });
  },
};
