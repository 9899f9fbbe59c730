import { SCOPED_ENVIRONMENT } from '@bo/db';
import { z } from 'zod';
import { BusinessRuleError, NotFoundError } from '../../shared/errors.js';
import { recordEvent } from '../../shared/events.js';
import { newEntityId, uuidv7 } from '../../shared/ids.js';
import { withPlainDecimals } from '../../shared/numbers.js';
import type { UserContext } from '../../trpc.js';
import { loadProjectService } from './project-service.row.js';
import { projectServiceV3 } from './project-service.views.js';

/** Body of POST projects/service/{id}/duplicate (reference: DuplicateProjectService, empty); a new name may be given. */
export const duplicateProjectServiceSchema = z.object({ name: z.string().trim().min(1).max(255).optional() });

/** A copy of a service on the same project with a new UUID v7 id, its lines and open installments; never invoiced. */
export async function duplicateProjectService(
  ctx: UserContext,
  id: string,
  input: z.infer<typeof duplicateProjectServiceSchema>,
) {
  return ctx.db.$transaction(async (tx) => {
    const source = await loadProjectService(tx, id);
    if (!source) throw new NotFoundError('projectservice', id);
    if (source.project.projectStatus?.isClosed)
      throw new BusinessRuleError(`the project of service ${id} is closed; no services can be added`);
    const now = ctx.clock.now();
    const copyId = uuidv7(now.getTime());
    const { project: _p, hourTypes, costTypes, installments, invoiceLines: _l, ...columns } = source;
    await tx.projectService.create({
      data: {
        ...withPlainDecimals(columns),
        id: copyId,
        environmentId: SCOPED_ENVIRONMENT,
        name: input.name ?? columns.name,
        status: 'open',
        createdAt: now,
        updatedAt: now,
      },
    });
    await tx.projectServiceHourType.createMany({
      data: hourTypes.map(({ hourType: _h, ...l }) => ({
        ...withPlainDecimals(l),
        id: newEntityId('projecthourtype'),
        environmentId: SCOPED_ENVIRONMENT,
        projectServiceId: copyId,
      })),
    });
    await tx.projectServiceCostType.createMany({
      data: costTypes.map(({ costType: _c, ...l }) => ({
        ...withPlainDecimals(l),
        id: newEntityId('projectcosttype'),
        environmentId: SCOPED_ENVIRONMENT,
        projectServiceId: copyId,
      })),
    });
    await tx.projectServiceInstallment.createMany({
      data: installments.map((i) => ({
        ...withPlainDecimals(i),
        id: newEntityId('installment'),
        environmentId: SCOPED_ENVIRONMENT,
        projectServiceId: copyId,
        status: 'open',
        invoiceId: null,
      })),
    });
    const copy = await loadProjectService(tx, copyId);
    await recordEvent(tx, {
      entityType: 'projectservice',
      entityId: copyId,
      change: 'created',
      data: copy ? projectServiceV3(copy) : { id: copyId },
    });
    return { id: copyId };
  });
}
