import { SCOPED_ENVIRONMENT } from '@bo/db';
import { hours } from '../hours/hours/hours.entity.js';
import { BookingRefused, createHours } from '../hours/hours/hours.write.js';
import {
  type EntityCreate,
  type EntityUpdate,
  getEntity,
  inWrite,
  recordChange,
  type WriteContext,
} from '../shared/entity/index.js';
import { NotFoundError, ValidationError } from '../shared/errors.js';
import { newEntityId } from '../shared/ids.js';
import type { UserContext } from '../trpc.js';
import { type TimerState, timer } from './timer.entity.js';
import type { CreateTimerInput, StopTimerInput, UpdateTimerInput } from './timer.schema.js';

/** At most one running timer per employee (the partial unique index is the backstop). */
async function assertNoneRunning(w: WriteContext, employeeId: string, except?: string) {
  await w.sql.read(`SELECT 1 AS locked FROM pg_advisory_xact_lock(hashtextextended($1 || ':timer:' || $2, 0))`, [employeeId]);
  const running = await w.tx.timer.findFirst({
    where: { employeeId, state: 'running', ...(except ? { id: { not: except } } : {}) },
    select: { id: true },
  });
  if (running) throw new BookingRefused('timer_already_running', `The employee already has a running timer (${running.id}).`);
}

export const createTimer: EntityCreate<CreateTimerInput> = {
  async run(w, input) {
    const service = await w.tx.projectService.findUnique({
      where: { id: input.projectServiceId },
      select: { projectId: true, hourTypes: { select: { hourTypeId: true } } },
    });
    if (!service) throw new NotFoundError('projectservice', input.projectServiceId);
    if (input.projectId && input.projectId !== service.projectId) {
      throw new ValidationError([
        { path: 'projectId', message: 'The service is not a service of this project.', code: 'mismatch' },
      ]);
    }
    if (!service.hourTypes.some((l) => l.hourTypeId === input.hourTypeId)) {
      throw new BookingRefused('hour_type_not_on_service', 'The hour type is not one of the service.');
    }
    const state: TimerState = input.state ?? 'running';
    if (state === 'running') await assertNoneRunning(w, input.employeeId);
    const id = newEntityId('timer');
    await w.tx.timer.create({
      data: {
        id,
        environmentId: SCOPED_ENVIRONMENT,
        employeeId: input.employeeId,
        projectId: service.projectId,
        projectServiceId: input.projectServiceId,
        hourTypeId: input.hourTypeId,
        state,
        runningSince: state === 'running' ? w.now : null,
        metadata: input.metadata ?? null,
      },
    });
    return id;
  },
};

/** Moves a timer: a pause or a finish adds the current run to the seconds counted; a finished timer stays finished. */
async function moveTimer(w: WriteContext, id: string, to: TimerState | undefined, metadata: string | null | undefined) {
  const current = await w.tx.timer.findUniqueOrThrow({ where: { id } });
  const from = current.state as TimerState;
  if (to && to !== from && from === 'finished')
    throw new BookingRefused('timer_finished', 'The timer is finished; it cannot run again.');
  const data: { state?: string; secondsBefore?: number; runningSince?: Date | null; metadata?: string | null; updatedAt: Date } =
    {
      updatedAt: w.now,
    };
  if (metadata !== undefined) data.metadata = metadata;
  if (to === 'running' && from === 'running') throw new BookingRefused('timer_already_running', 'The timer is running already.');
  if (to && to !== from) {
    if (to === 'running') {
      await assertNoneRunning(w, current.employeeId, id);
      data.runningSince = w.now;
    } else if (from === 'running' && current.runningSince) {
      data.secondsBefore =
        current.secondsBefore + Math.max(0, Math.floor((w.now.getTime() - current.runningSince.getTime()) / 1000));
      data.runningSince = null;
    }
    data.state = to;
  }
  await w.tx.timer.update({ where: { id }, data });
  return { ...current, secondsBefore: data.secondsBefore ?? current.secondsBefore };
}

export const updateTimer: EntityUpdate<UpdateTimerInput> = {
  async run(w, id, input) {
    await moveTimer(w, id, input.state, input.metadata);
  },
};

/**
 * Stops a timer; with `book` its duration (whole minutes, at least one) becomes an hour
 * registration on the timer's service and hour type, under the booking rules of hours.
 */
export async function stopTimer(ctx: UserContext, id: string, input: StopTimerInput) {
  await getEntity(ctx, timer, id);
  await inWrite(ctx, async (w) => {
    if (!(await w.sql.lockForUpdate('timer', id))) throw new NotFoundError('timer', id);
    const stopped = await moveTimer(w, id, 'finished', undefined);
    if (input.book) {
      if (!stopped.projectServiceId || !stopped.hourTypeId) {
        throw new BookingRefused('timer_without_service', 'The timer has no service and hour type to book on.');
      }
      const minutes = Math.min(1440, Math.max(1, Math.ceil(stopped.secondsBefore / 60)));
      const hoursId = await createHours.run(w, {
        employeeId: stopped.employeeId,
        projectServiceId: stopped.projectServiceId,
        hourTypeId: stopped.hourTypeId,
        startDate: (input.date ?? w.now).toISOString().slice(0, 10),
        durationMinutes: minutes,
        description: input.description ?? null,
        source: 'timer',
        customFields: undefined,
      });
      await recordChange(w, hours, hoursId, 'created');
      await w.tx.timer.update({ where: { id }, data: { relatedHoursId: hoursId } });
    }
    await recordChange(w, timer, id, 'updated');
  });
  return getEntity(ctx, timer, id);
}
