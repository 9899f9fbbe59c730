import type { EntityCreate } from '../../shared/entity/index.js';
import type { CreateProjectServiceInput } from './project-service.schema.js';
import { saveProjectService } from './save-project-service.js';

/** Stores an invoiceable service (fixed price unless another invoice method is named). */
export const createProjectService: EntityCreate<CreateProjectServiceInput> = {
  run: (w, input) => saveProjectService(w, { kind: 'invoiceable' }, input),
};
