import { SCOPED_ENVIRONMENT } from '@bo/db';
import { deleteCustomFieldValues, writeCustomFields } from '../../customfields/index.js';
import type { EntityCreate, EntityRemove, EntityUpdate } from '../../shared/entity/index.js';
import { BusinessRuleError } from '../../shared/errors.js';
import { newEntityId } from '../../shared/ids.js';
import type { CreateProjectInput, UpdateProjectInput } from './project.schema.js';

function columns(input: UpdateProjectInput) {
  return {
    name: input.name,
    projectNumber: input.projectNumber,
    organizationId: input.organizationId,
    personId: input.personId,
    contactId: input.contactId,
    myOrganizationProfileId: input.myOrganizationProfileId,
    projectManagerId: input.projectManagerId,
    projectStatusId: input.projectStatusId,
    billable: input.billable,
    canRegisterMileage: input.canRegisterMileage,
    note: input.note,
    startDate: input.startDate,
    endDate: input.endDate,
    invoiceReference: input.invoiceReference,
    phase: input.phase,
  };
}

/** A new project without a status starts in the environment's first open status. */
export const createProject: EntityCreate<CreateProjectInput> = {
  async run({ tx, sql }, input) {
    const id = newEntityId('project');
    const status = input.projectStatusId
      ? null
      : await tx.projectStatus.findFirst({ where: { isClosed: false }, orderBy: { position: 'asc' } });
    const data = columns(input);
    await tx.project.create({
      data: {
        ...data,
        projectStatusId: data.projectStatusId ?? status?.id ?? null,
        name: input.name,
        id,
        environmentId: SCOPED_ENVIRONMENT,
      },
    });
    await writeCustomFields(sql, 'project', id, input.customFields, 'create');
    return id;
  },
};

export const updateProject: EntityUpdate<UpdateProjectInput> = {
  async run({ tx, sql, now }, id, input) {
    const current = await tx.project.findUniqueOrThrow({ where: { id }, include: { _count: { select: { services: true } } } });
    // contract 2025-04: billable of a project with services cannot change; its services must be removed first
    if (input.billable !== undefined && input.billable !== current.billable && current._count.services > 0) {
      throw new BusinessRuleError(
        `billable of project ${id} cannot change while it has ${current._count.services} service(s); remove the services first`,
      );
    }
    await tx.project.update({ where: { id }, data: { ...columns(input), updatedAt: now } });
    await writeCustomFields(sql, 'project', id, input.customFields, 'update');
  },
};

/** Custom-field values are keyed by entity id, not by a foreign key: they go with the project. */
export const deleteProject: EntityRemove = async ({ tx, sql }, id) => {
  await deleteCustomFieldValues(sql, id);
  await tx.project.delete({ where: { id } });
};
