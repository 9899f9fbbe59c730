import type { EntityUpdate } from '../../shared/entity/index.js';
import { BusinessRuleError, NotFoundError } from '../../shared/errors.js';
import type { ServiceKind } from './project-service.entity.js';
import type { UpdateProjectServiceInput } from './project-service.schema.js';
import { editRefusal, saveProjectService, serviceForWrite } from './save-project-service.js';

/** Changes a service of any kind, unless it has been invoiced or its project is closed. */
export const updateProjectService: EntityUpdate<UpdateProjectServiceInput> = {
  async run(w, id, input) {
    const existing = await serviceForWrite(w.sql, id);
    if (!existing) throw new NotFoundError('projectservice', id);
    const refusal = editRefusal(existing);
    if (refusal) throw new BusinessRuleError(refusal);
    await saveProjectService(w, { kind: existing.kind as ServiceKind, existing }, input);
  },
};
