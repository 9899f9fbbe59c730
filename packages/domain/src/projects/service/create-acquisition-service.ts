import type { EntityCreate } from '../../shared/entity/index.js';
import { BusinessRuleError } from '../../shared/errors.js';
import type { CreateAcquisitionServiceInput } from './project-service.schema.js';
import { saveProjectService } from './save-project-service.js';

/**
 * The work of winning a project, on a project in acquisition. Acquisition work is
 * never billed, so every hour type is non-billable.
 */
export const createAcquisitionService: EntityCreate<CreateAcquisitionServiceInput> = {
  async run(w, input) {
    const [project] = await w.sql.read<{ phase: string }>('SELECT phase FROM project WHERE environment_id = $1 AND id = $2', [
      input.projectId,
    ]);
    // a missing project is refused with the other references
    if (project && project.phase !== 'acquisition') {
      throw new BusinessRuleError(
        `project ${input.projectId} is not in acquisition; acquisition services belong to projects being acquired`,
      );
    }
    return saveProjectService(w, { kind: 'acquisition' }, { ...input, invoiceMethod: 'time_and_expenses' });
  },
};
