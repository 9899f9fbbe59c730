import type { z } from 'zod';
import { BusinessRuleError } from '../../../shared/errors.js';
import type { UserContext } from '../../../trpc.js';
import type { AdvanceServiceOutput, EditAdvanceProjectService } from '../project-service.v3.schema.js';
import { advanceServiceV3 } from '../project-service.views.js';
import { saveProjectService, serviceForEdit, V3_FIELDS } from '../save-project-service.js';
import { serviceCommand } from './service-command.js';

/** projectService.advance.edit (201). The contract lists no 404 here: a missing advance service is a 422. */
export async function editAdvanceService(
  ctx: UserContext,
  input: z.output<typeof EditAdvanceProjectService>,
): Promise<AdvanceServiceOutput> {
  const { id, ...fields } = input;
  const row = await serviceCommand(ctx, 'updated', async (w) => {
    const existing = await serviceForEdit(w.tx, id, 'advance', () => new BusinessRuleError(`there is no advance service ${id}`));
    return saveProjectService(w, { kind: 'advance', existing }, fields, V3_FIELDS);
  });
  return advanceServiceV3(row);
}
