import { hours } from '../hours/hours/hours.entity.js';
import { BookingRefused, createHours } from '../hours/hours/hours.write.js';
import {
  type EntityCreate,
  type EntityUpdate,
  getEntity,
  inSqlWrite,
  recordChange,
  type SqlWriteContext,
} from '../shared/entity/index.js';
import { NotFoundError, ValidationError } from '../shared/errors.js';
import { newEntityId } from '../shared/ids.js';
import type { UserContext } from '../trpc.js';
import { type TimerState, timer } from './timer.entity.js';
import type { CreateTimerInput, StopTimerInput, UpdateTimerInput } from './timer.schema.js';

/** At most one running timer per employee (the partial unique index is the backstop). */
async function assertNoneRunning(w: SqlWriteContext, employeeId: string, except?: string) {
  await w.sql.read(`SELECT 1 AS locked FROM pg_advisory_xact_lock(hashtextextended($1 || ':timer:' || $2, 0))`, [employeeId]);
  // a statement of its own, after the lock: it sees a timer started by a write that held the lock before
  const [running] = await w.sql.read<{ id: string }>(
    `SELECT id FROM timer
      WHERE environment_id = $1 AND employee_id = $2 AND state = 'running' AND ($3::text IS NULL OR id <> $3)
      LIMIT 1`,
    [employeeId, except ?? null],
  );
  if (running) throw new BookingRefused('timer_already_running', `The employee already has a running timer (${running.id}).`);
}

export const createTimer: EntityCreate<CreateTimerInput> = {
  async run(w, input) {
    const [service] = await w.sql.read<{ projectId: string; hasHourType: boolean }>(
      `SELECT s.project_id AS "projectId",
              EXISTS (SELECT 1 FROM project_service_hour_type l
                       WHERE l.environment_id = $1 AND l.project_service_id = s.id AND l.hour_type_id = $3) AS "hasHourType"
         FROM project_service s WHERE s.environment_id = $1 AND s.id = $2`,
      [input.projectServiceId, input.hourTypeId],
    );
    if (!service) throw new NotFoundError('projectservice', input.projectServiceId);
    if (input.projectId && input.projectId !== service.projectId) {
      throw new ValidationError([
        { path: 'projectId', message: 'The service is not a service of this project.', code: 'mismatch' },
      ]);
    }
    if (!service.hasHourType) {
      throw new BookingRefused('hour_type_not_on_service', 'The hour type is not one of the service.');
    }
    const state: TimerState = input.state ?? 'running';
    if (state === 'running') await assertNoneRunning(w, input.employeeId);
    const id = newEntityId('timer');
    await w.sql.insert('timer', {
      id,
      employee_id: input.employeeId,
      project_id: service.projectId,
      project_service_id: input.projectServiceId,
      hour_type_id: input.hourTypeId,
      state,
      running_since: state === 'running' ? w.now : null,
      metadata: input.metadata ?? null,
      updated_at: w.now,
    });
    return id;
  },
};

/** A timer as a move reads it (its row is locked by the write). */
interface StoredTimer {
  employeeId: string;
  projectServiceId: string | null;
  hourTypeId: string | null;
  state: TimerState;
  secondsBefore: number;
  runningSince: Date | null;
}

/** Moves a timer: a pause or a finish adds the current run to the seconds counted; a finished timer stays finished. */
async function moveTimer(w: SqlWriteContext, id: string, to: TimerState | undefined, metadata: string | null | undefined) {
  const [current] = await w.sql.read<StoredTimer>(
    `SELECT employee_id AS "employeeId", project_service_id AS "projectServiceId", hour_type_id AS "hourTypeId", state,
            seconds_before AS "secondsBefore", running_since AS "runningSince"
       FROM timer WHERE environment_id = $1 AND id = $2`,
    [id],
  );
  if (!current) throw new NotFoundError('timer', id);
  const from = current.state;
  if (to && to !== from && from === 'finished')
    throw new BookingRefused('timer_finished', 'The timer is finished; it cannot run again.');
  const data: {
    state?: string;
    seconds_before?: number;
    running_since?: Date | null;
    metadata?: string | null;
    updated_at: Date;
  } = { updated_at: w.now };
  if (metadata !== undefined) data.metadata = metadata;
  if (to === 'running' && from === 'running') throw new BookingRefused('timer_already_running', 'The timer is running already.');
  if (to && to !== from) {
    if (to === 'running') {
      await assertNoneRunning(w, current.employeeId, id);
      data.running_since = w.now;
    } else if (from === 'running' && current.runningSince) {
      data.seconds_before =
        current.secondsBefore + Math.max(0, Math.floor((w.now.getTime() - current.runningSince.getTime()) / 1000));
      data.running_since = null;
    }
    data.state = to;
  }
  await w.sql.update('timer', id, data);
  return { ...current, secondsBefore: data.seconds_before ?? current.secondsBefore };
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
  await inSqlWrite(ctx, async (w) => {
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
      // the events' payloads are made by PostgreSQL from the rows: the stop answers the timer read after it
      await recordChange(w, hours, hoursId, 'created', false);
      await w.sql.update('timer', id, { related_hours_id: hoursId, updated_at: w.now });
    }
    await recordChange(w, timer, id, 'updated', false);
  });
  return getEntity(ctx, timer, id);
}
