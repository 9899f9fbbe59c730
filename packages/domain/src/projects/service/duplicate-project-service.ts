import { SCOPED_ENVIRONMENT } from '@bo/db';
import type { EntityCreate } from '../../shared/entity/index.js';
import { BusinessRuleError, NotFoundError } from '../../shared/errors.js';
import { newEntityId, uuidv7 } from '../../shared/ids.js';
import { withPlainDecimals } from '../../shared/numbers.js';
import type { DuplicateProjectServiceInput } from './project-service.schema.js';

/** A copy of a service on the same project with a new UUID v7 id, its lines and open installments; never invoiced. */
export const duplicateProjectService: EntityCreate<DuplicateProjectServiceInput & { sourceId: string }> = {
  async run({ tx, now }, input) {
    const id = input.sourceId;
    const source = await tx.projectService.findFirst({
      where: { id },
      include: { project: { include: { projectStatus: true } }, hourTypes: true, costTypes: true, installments: true },
    });
    if (!source) throw new NotFoundError('projectservice', id);
    if (source.project.projectStatus?.isClosed)
      throw new BusinessRuleError(`the project of service ${id} is closed; no services can be added`);
    const copyId = uuidv7(now.getTime());
    const { project: _p, hourTypes, costTypes, installments, ...columns } = source;
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
      data: hourTypes.map((l) => ({
        ...withPlainDecimals(l),
        id: newEntityId('projecthourtype'),
        environmentId: SCOPED_ENVIRONMENT,
        projectServiceId: copyId,
      })),
    });
    await tx.projectServiceCostType.createMany({
      data: costTypes.map((l) => ({
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
    return copyId;
  },
};
