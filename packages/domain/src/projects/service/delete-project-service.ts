import type { SqlWriteContext } from '../../shared/entity/index.js';
import { BusinessRuleError, NotFoundError } from '../../shared/errors.js';
import { editRefusal, serviceForWrite } from './save-project-service.js';

/** A service that may no longer be edited may not be deleted either. */
export async function deleteProjectService({ sql }: SqlWriteContext, id: string): Promise<void> {
  const existing = await serviceForWrite(sql, id);
  if (!existing) throw new NotFoundError('projectservice', id);
  const refusal = editRefusal(existing);
  if (refusal) throw new BusinessRuleError(refusal.replace('edited', 'deleted'));
  // its lines and installments go with it (cascade); hours or costs booked on it refuse it (422)
  await sql.deleteById('project_service', id);
}
