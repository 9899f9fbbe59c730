import { BusinessRuleError, NotFoundError } from '../../shared/errors.js';
import type { ResourceDefinition } from '../../shared/resources/definition.js';
import { duplicateProjectService, duplicateProjectServiceSchema } from './duplicate-project-service.js';
import { planningBudgetSchema, serviceplanningBudget } from './planning-budget.js';
import { loadProjectService, loadProjectServices, type ProjectServiceRow, type ServiceKind } from './project-service.row.js';
import { projectServiceSql } from './project-service.sql.js';
import {
  fromV2,
  type PostProjectServiceInput,
  postProjectServiceSchema,
  type PutProjectServiceInput,
  putProjectServiceSchema,
} from './project-service.v2.schema.js';
import { projectServiceV2, projectServiceV3 } from './project-service.views.js';
import { editRefusal, saveProjectService, V2_FIELDS } from './save-project-service.js';

/** v2 projects/service: the same rows and rules v3's projectService.* commands use. */
export const projectServiceResource: ResourceDefinition<ProjectServiceRow, PostProjectServiceInput, PutProjectServiceInput> = {
  name: 'projects/service',
  entityType: 'projectservice',
  module: 'projects',
  sql: projectServiceSql,
  defaultSort: [{ path: 'created_at', dir: 'asc' }],
  load: loadProjectServices,
  views: { v2: projectServiceV2, v3: projectServiceV3 },
  create: {
    schema: postProjectServiceSchema,
    // v2 POST has always made invoiceable services; a missing invoice method is a fixed fee (the reference's only value)
    run: (w, input) =>
      saveProjectService(
        w,
        { kind: 'invoiceable' },
        { ...fromV2(input), invoiceMethod: fromV2(input).invoiceMethod ?? 'fixed_price' },
        V2_FIELDS,
      ),
  },
  update: {
    schema: putProjectServiceSchema,
    async run(w, id, input) {
      const existing = await loadProjectService(w.tx, id);
      if (!existing) throw new NotFoundError('projectservice', id);
      const refusal = editRefusal(existing);
      if (refusal) throw new BusinessRuleError(refusal);
      await saveProjectService(w, { kind: existing.kind as ServiceKind, existing }, fromV2(input), V2_FIELDS);
    },
  },
  async remove({ tx }, id) {
    const existing = await loadProjectService(tx, id);
    if (!existing) throw new NotFoundError('projectservice', id);
    const refusal = editRefusal(existing);
    if (refusal) throw new BusinessRuleError(refusal.replace('edited', 'deleted'));
    await tx.projectService.delete({ where: { id } });
  },
  actions: [
    {
      name: 'duplicate',
      method: 'POST',
      schema: duplicateProjectServiceSchema,
      run: (ctx, id, input) => duplicateProjectService(ctx, id, input as { name?: string }),
    },
    {
      name: 'planningBudget',
      method: 'GET',
      schema: planningBudgetSchema,
      run: (ctx, id, input) => serviceplanningBudget(ctx, id, input as Parameters<typeof serviceplanningBudget>[2]),
    },
  ],
};
