import type { z } from 'zod';
import { BusinessRuleError } from '../../../shared/errors.js';
import type { UserContext } from '../../../trpc.js';
import type { AcquisitionServiceOutput, EditAcquisitionProjectService } from '../project-service.v3.schema.js';
import { acquisitionServiceV3 } from '../project-service.views.js';
import { saveProjectService, serviceForEdit, V3_FIELDS } from '../save-project-service.js';
import { linesFromV3, serviceCommand } from './service-command.js';

/** projectService.acquisition.edit (201): only while the service is still in acquisition. */
export async function editAcquisitionService(
  ctx: UserContext,
  input: z.output<typeof EditAcquisitionProjectService>,
): Promise<AcquisitionServiceOutput> {
  const { id, hourTypes, ...fields } = input;
  const row = await serviceCommand(ctx, 'updated', async (w) => {
    const existing = await serviceForEdit(w.tx, id, 'acquisition');
    if (existing.phase !== 'acquisition') {
      throw new BusinessRuleError(
        `project service ${id} has been approved into execution and is no longer an acquisition to edit`,
      );
    }
    const lines = hourTypes === undefined ? undefined : linesFromV3({ hourTypes, costTypes: [] });
    return saveProjectService(w, { kind: 'acquisition', existing }, { ...fields, lines }, V3_FIELDS);
  });
  return acquisitionServiceV3(row);
}
