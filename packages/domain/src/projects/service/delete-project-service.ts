import type { EntityRemove } from '../../shared/entity/index.js';
import { BusinessRuleError, NotFoundError } from '../../shared/errors.js';
import { editRefusal, serviceForWrite } from './save-project-service.js';

/** A service that may no longer be edited may not be deleted either. */
export const deleteProjectService: EntityRemove = async ({ tx }, id) => {
  const existing = await serviceForWrite(tx, id);
  if (!existing) throw new NotFoundError('projectservice', id);
  const refusal = editRefusal(existing);
  if (refusal) throw new BusinessRuleError(refusal.replace('edited', 'deleted'));
  await tx.projectService.delete({ where: { id } });
};
