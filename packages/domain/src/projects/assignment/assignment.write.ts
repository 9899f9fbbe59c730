import { SCOPED_ENVIRONMENT } from '@bo/db';
import type { EntityCreate, EntityTransaction, EntityUpdate, ReferenceCheck } from '../../shared/entity/index.js';
import { ValidationError } from '../../shared/errors.js';
import { assignmentStatus } from '../reference/assignmentstatus.entity.js';
import { newEntityId } from '../../shared/ids.js';
import type { CreateAssignmentInput, UpdateAssignmentInput } from './assignment.schema.js';

/** The employees named become exactly the assignment's employees. */
async function writeEmployees(tx: EntityTransaction, assignmentId: string, list: { id: string }[] | undefined) {
  if (!list) return;
  await tx.assignmentEmployee.deleteMany({ where: { assignmentId } });
  const unique = [...new Set(list.map((e) => e.id))];
  await tx.assignmentEmployee.createMany({
    data: unique.map((employeeId) => ({
      id: newEntityId('assignmentemployee'),
      environmentId: SCOPED_ENVIRONMENT,
      assignmentId,
      employeeId,
    })),
  });
}

/** The status must be one of the environment's, and not a blocked one. */
function statusReferences(input: { statusId?: string | null }): ReferenceCheck[] {
  return [{ path: 'statusId', target: assignmentStatus, id: input.statusId }];
}

async function assertStatusOpen(tx: EntityTransaction, statusId: string | null | undefined) {
  if (!statusId) return;
  const status = await tx.assignmentStatus.findFirst({ where: { id: statusId } });
  if (status?.isBlocked) {
    throw new ValidationError([
      { path: 'statusId', message: `The assignment status "${status.name}" is blocked and cannot be chosen.`, code: 'blocked' },
    ]);
  }
}

/** Plans work on an hour type line; the project and service are those of the line. */
export const createAssignment: EntityCreate<CreateAssignmentInput> = {
  references: statusReferences,
  async run({ tx }, input) {
    await assertStatusOpen(tx, input.statusId);
    const line = await tx.projectServiceHourType.findUniqueOrThrow({
      where: { id: input.projectHourTypeId },
      include: { projectService: true },
    });
    if (input.startDate && input.endDate && input.endDate < input.startDate) {
      throw new ValidationError([
        { path: 'endDate', message: 'The end date lies before the start date.', code: 'invalid_period' },
      ]);
    }
    const id = newEntityId('assignment');
    await tx.assignment.create({
      data: {
        id,
        environmentId: SCOPED_ENVIRONMENT,
        projectId: line.projectService.projectId,
        projectServiceId: line.projectServiceId,
        projectHourTypeId: line.id,
        name: input.name ?? null,
        description: input.description ?? null,
        startDate: input.startDate ?? null,
        endDate: input.endDate ?? null,
        hoursType: input.hoursType ?? 'total',
        hours: input.hours ?? null,
        useSpread: input.useSpread ?? false,
        statusId: input.statusId ?? null,
      },
    });
    await writeEmployees(tx, id, input.employees);
    return id;
  },
};

export const updateAssignment: EntityUpdate<UpdateAssignmentInput> = {
  references: statusReferences,
  async run({ tx, now }, id, input) {
    await assertStatusOpen(tx, input.statusId);
    await tx.assignment.update({
      where: { id },
      data: {
        name: input.name,
        description: input.description,
        hoursType: input.hoursType,
        hours: input.hours,
        useSpread: input.useSpread,
        statusId: input.statusId,
        updatedAt: now,
      },
    });
    await writeEmployees(tx, id, input.employees);
  },
};
