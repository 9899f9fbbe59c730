import { SCOPED_ENVIRONMENT } from '@bo/db';
import { BookingRefused } from '../hours/hours/hours.write.js';
import type { EntityCreate, EntityRemove, EntityUpdate, WriteContext } from '../shared/entity/index.js';
import { ValidationError } from '../shared/errors.js';
import { newEntityId } from '../shared/ids.js';
import type { CreateMileageInput, UpdateMileageInput } from './mileage.schema.js';

/** The related hours (2021) are hours of the same employee. */
async function checkRelatedHours(w: WriteContext, employeeId: string, relatedHoursId: string | null | undefined) {
  if (!relatedHoursId) return;
  const h = await w.tx.hourRegistration.findUnique({ where: { id: relatedHoursId }, select: { employeeId: true } });
  if (h && h.employeeId !== employeeId) {
    throw new ValidationError([
      { path: 'relatedHoursId', message: 'The related hours are hours of another employee.', code: 'mismatch' },
    ]);
  }
}

async function assertOpenProject(w: WriteContext, projectId: string) {
  const p = await w.tx.project.findUnique({ where: { id: projectId }, include: { projectStatus: true } });
  if (p?.projectStatus?.isClosed)
    throw new BookingRefused('project_closed', `The project ${p.name} is closed; nothing can be booked on it.`);
}

async function assertChangeable(w: WriteContext, id: string) {
  const m = await w.tx.mileage.findUniqueOrThrow({ where: { id }, select: { invoiceId: true, approvalStatus: true } });
  if (m.invoiceId || m.approvalStatus === 'approved') {
    throw new BookingRefused(
      'mileage_locked',
      `The mileage is ${m.invoiceId ? 'invoiced' : 'approved'}; it can no longer change.`,
    );
  }
}

export const createMileage: EntityCreate<CreateMileageInput> = {
  async run(w, input) {
    await assertOpenProject(w, input.projectId);
    await checkRelatedHours(w, input.employeeId, input.relatedHoursId);
    const id = newEntityId('mileage');
    await w.tx.mileage.create({
      data: {
        id,
        environmentId: SCOPED_ENVIRONMENT,
        employeeId: input.employeeId,
        projectId: input.projectId,
        startDate: input.startDate,
        distance: input.distance,
        relatedHoursId: input.relatedHoursId ?? null,
        source: input.source ?? null,
        note: input.note ?? null,
      },
    });
    return id;
  },
};

export const updateMileage: EntityUpdate<UpdateMileageInput> = {
  async run(w, id, input) {
    await assertChangeable(w, id);
    const current = await w.tx.mileage.findUniqueOrThrow({ where: { id } });
    await checkRelatedHours(w, current.employeeId, input.relatedHoursId);
    await w.tx.mileage.update({
      where: { id },
      data: {
        distance: input.distance,
        startDate: input.startDate,
        relatedHoursId: input.relatedHoursId,
        source: input.source,
        note: input.note,
        updatedAt: w.now,
      },
    });
  },
};

export const removeMileage: EntityRemove = async (w, id) => {
  await assertChangeable(w, id);
  await w.sql.deleteById('mileage', id);
};
