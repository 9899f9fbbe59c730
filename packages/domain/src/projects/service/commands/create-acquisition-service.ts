import type { z } from 'zod';
import { BusinessRuleError } from '../../../shared/errors.js';
import type { UserContext } from '../../../trpc.js';
import type { AcquisitionServiceOutput, CreateAcquisitionProjectService } from '../project-service.v3.schema.js';
import { acquisitionServiceV3 } from '../project-service.views.js';
import { saveProjectService, V3_FIELDS } from '../save-project-service.js';
import { linesFromV3, serviceCommand } from './service-command.js';

/**
 * projectService.acquisition.create (201): the work of winning a project, on a
 * project in acquisition. Acquisition work is never billed, so every hour type is non-billable.
 */
export async function createAcquisitionService(
  ctx: UserContext,
  input: z.output<typeof CreateAcquisitionProjectService>,
): Promise<AcquisitionServiceOutput> {
  const row = await serviceCommand(ctx, 'created', async (w) => {
    const project = await w.tx.project.findUnique({ where: { id: input.projectId } });
    if (project && project.phase !== 'acquisition') {
      throw new BusinessRuleError(
        `project ${project.id} is not in acquisition; acquisition services belong to projects being acquired`,
      );
    }
    const { hourTypes: _h, ...rest } = input;
    return saveProjectService(
      w,
      { kind: 'acquisition' },
      { ...rest, invoiceMethod: 'time_and_expenses', lines: linesFromV3({ hourTypes: input.hourTypes }) },
      V3_FIELDS,
    );
  });
  return acquisitionServiceV3(row);
}
