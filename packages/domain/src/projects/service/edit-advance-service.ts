import type { EntityUpdate } from '../../shared/entity/index.js';
import { BusinessRuleError } from '../../shared/errors.js';
import type { UpdateAdvanceServiceInput } from './project-service.schema.js';
import { saveProjectService, serviceForEdit } from './save-project-service.js';

/** A missing advance service is a business rule here (the contract lists no 404). */
export const missingAdvanceService = (id: string) => new BusinessRuleError(`there is no advance service ${id}`);

export const editAdvanceService: EntityUpdate<UpdateAdvanceServiceInput> = {
  async run(w, id, input) {
    const existing = await serviceForEdit(w.sql, id, 'advance', () => missingAdvanceService(id));
    await saveProjectService(w, { kind: 'advance', existing }, input);
  },
};
