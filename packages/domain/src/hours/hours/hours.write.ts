import { parseDateTime } from '@bo/db';
import { deleteCustomFieldValues, writeCustomFields } from '../../customfields/index.js';
import type { EntityCreate, EntityUpdate, SqlWriteContext } from '../../shared/entity/index.js';
import { BusinessRuleError, NotFoundError, ValidationError } from '../../shared/errors.js';
import { newEntityId } from '../../shared/ids.js';
import { lockWeek, weekStateOf, weekStartOf } from '../approval/week.js';
import { type CreateHoursInput, MINUTES_PER_DAY, type UpdateHoursInput } from './hours.schema.js';

/** Refusals of a booking carry a stable code in their text (contract 2023-04), listed in the README. */
export class BookingRefused extends BusinessRuleError {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(`${message} [${code}]`);
  }
}

const day = (d: Date) => d.toISOString().slice(0, 10);

interface Timing {
  date: Date;
  minutes: number;
}

/** The day and duration of a booking: from the duration or hours, or from a start and end date-time. */
export function timingOf(input: {
  startDate?: string | undefined;
  endDate?: string | null | undefined;
  durationMinutes?: number | undefined;
  hours?: number | undefined;
}): Timing | null {
  if (input.startDate === undefined) return null;
  const start = parseDateTime(input.startDate);
  if (!start) {
    throw new ValidationError([
      { path: 'startDate', message: 'This value is not a valid date (YYYY-MM-DD).', code: 'invalid_date' },
    ]);
  }
  let minutes = input.durationMinutes ?? (input.hours !== undefined ? Math.round(input.hours * 60) : undefined);
  if (input.endDate) {
    const end = parseDateTime(input.endDate);
    if (!end) {
      throw new ValidationError([
        { path: 'endDate', message: 'This value is not a valid date (YYYY-MM-DD).', code: 'invalid_date' },
      ]);
    }
    if (end < start) {
      throw new ValidationError([{ path: 'endDate', message: 'The end lies before the start.', code: 'invalid_period' }]);
    }
    if (minutes === undefined && /[ T]\d\d:\d\d/.test(input.endDate))
      minutes = Math.round((end.getTime() - start.getTime()) / 60_000);
  }
  if (minutes === undefined) {
    throw new ValidationError([
      { path: 'durationMinutes', message: 'Give the duration in minutes or the hours.', code: 'required' },
    ]);
  }
  if (minutes < 1 || minutes > MINUTES_PER_DAY) {
    throw new ValidationError([
      { path: 'durationMinutes', message: 'The duration must be between one minute and 24 hours.', code: 'out_of_range' },
    ]);
  }
  return { date: new Date(`${day(start)}T00:00:00.000Z`), minutes };
}

interface Booking {
  employeeId: string;
  projectServiceId: string;
  hourTypeId: string;
  projectId?: string | undefined;
  date: Date;
  minutes: number;
  billable?: boolean | null | undefined;
  /** the registration being changed (left out of the day's total) */
  hoursId?: string;
}

/**
 * The booking rules of hours: the service tracks hours and carries the hour type; the
 * project is not closed and the service not invoiced; the employee has an assignment on
 * the service covering the day (2025-03); the day lies in the service's registration
 * timeframe (2025-07); no more than 24 hours a day; the week is not submitted or approved.
 * Answers the project, billable and tariff the registration stores.
 */
export async function checkBooking(
  w: SqlWriteContext,
  b: Booking,
): Promise<{ projectId: string; billable: boolean; tariff: number | null }> {
  // the service and its project are read under a share lock: closing the project or invoicing
  // the service (each an update of that row) then waits for this booking, or is seen by it
  await w.sql.read(
    `SELECT s.id FROM project_service s JOIN project p ON p.id = s.project_id AND p.environment_id = s.environment_id
      WHERE s.environment_id = $1 AND s.id = $2 FOR SHARE OF s, p`,
    [b.projectServiceId],
  );
  // then, in a statement of its own (it sees what committed before the lock was granted): the
  // service, its project's state, the service line of the hour type and the employee's assignments on it
  const [service] = await w.sql.read<BookedService>(
    `SELECT s.id, s.name, s.project_id AS "projectId", s.track_hours AS "trackHours", s.status,
            s.invoice_method AS "invoiceMethod",
            to_char(s.write_hours_start_date, 'YYYY-MM-DD') AS "from", to_char(s.write_hours_end_date, 'YYYY-MM-DD') AS "until",
            p.name AS "projectName",
            COALESCE((SELECT ps.is_closed FROM project_status ps WHERE ps.environment_id = $1 AND ps.id = p.project_status_id), false)
              AS "projectClosed",
            (SELECT json_build_object('billable', l.billable, 'tariff', COALESCE(l.tariff, ht.tariff)::text)
               FROM project_service_hour_type l JOIN hour_type ht ON ht.environment_id = $1 AND ht.id = l.hour_type_id
              WHERE l.environment_id = $1 AND l.project_service_id = s.id AND l.hour_type_id = $3
              ORDER BY l.position, l.id LIMIT 1) AS line,
            COALESCE((SELECT json_agg(json_build_object('startDate', to_char(a.start_date, 'YYYY-MM-DD'),
                                                        'endDate', to_char(a.end_date, 'YYYY-MM-DD')))
                        FROM assignment a
                       WHERE a.environment_id = $1 AND a.project_service_id = s.id
                         AND EXISTS (SELECT 1 FROM assignment_employee ae
                                      WHERE ae.environment_id = $1 AND ae.assignment_id = a.id AND ae.employee_id = $4)),
                     '[]'::json) AS assignments
       FROM project_service s JOIN project p ON p.id = s.project_id AND p.environment_id = $1
      WHERE s.environment_id = $1 AND s.id = $2`,
    [b.projectServiceId, b.hourTypeId, b.employeeId],
  );
  if (!service) throw new NotFoundError('projectservice', b.projectServiceId);
  if (b.projectId && b.projectId !== service.projectId) {
    throw new ValidationError([
      { path: 'projectId', message: 'The service is not a service of this project.', code: 'mismatch' },
    ]);
  }
  if (!service.trackHours) {
    throw new BookingRefused(
      'service_does_not_track_hours',
      `Hours can only be booked on a service that tracks hours; ${service.name} does not.`,
    );
  }
  const line = service.line;
  if (!line) throw new BookingRefused('hour_type_not_on_service', `The hour type is not one of the service ${service.name}.`);
  if (service.projectClosed) {
    throw new BookingRefused('project_closed', `The project ${service.projectName} is closed; no hours can be booked on it.`);
  }
  if (service.status === 'invoiced') {
    throw new BookingRefused('service_invoiced', `The service ${service.name} is invoiced; no hours can be booked on it.`);
  }
  const date = day(b.date);
  const { from, until } = service;
  if ((from && date < from) || (until && date > until)) {
    throw new BookingRefused(
      'outside_registration_timeframe',
      `Hours on ${service.name} can be booked from ${from ?? 'any day'} until ${until ?? 'any day'}; ${date} is outside that timeframe.`,
    );
  }
  const assignments = service.assignments;
  if (assignments.length === 0) {
    throw new BookingRefused('no_assignment', `The employee has no assignment on the service ${service.name}.`);
  }
  const covered = assignments.some((a) => (!a.startDate || a.startDate <= date) && (!a.endDate || a.endDate >= date));
  if (!covered) {
    throw new BookingRefused(
      'outside_assignment_period',
      `${date} lies outside the employee's assignment period on ${service.name}.`,
    );
  }
  // the week's state is read under the week's lock, which its transitions take too
  await lockWeek(w, b.employeeId, weekStartOf(b.date));
  const week = await weekStateOf(w, b.employeeId, weekStartOf(b.date));
  if (week === 'submitted' || week === 'approved') {
    throw new BookingRefused('week_locked', `The week of ${date} is ${week}; its hours can no longer change.`);
  }
  // one employee-day at a time: the total below is then exact
  await w.sql.read(`SELECT 1 AS locked FROM pg_advisory_xact_lock(hashtextextended($1 || ':' || $2 || ':' || $3, 0))`, [
    b.employeeId,
    date,
  ]);
  const [total] = await w.sql.read<{ minutes: number }>(
    `SELECT COALESCE(SUM(duration_minutes), 0)::int AS minutes FROM hour_registration
      WHERE environment_id = $1 AND employee_id = $2 AND start_date = $3::date AND id <> $4`,
    [b.employeeId, date, b.hoursId ?? ''],
  );
  if ((total?.minutes ?? 0) + b.minutes > MINUTES_PER_DAY) {
    throw new BookingRefused('day_over_24_hours', `The employee's hours on ${date} would exceed 24.`);
  }
  const billable = resolveHoursBillable(service.invoiceMethod, line.billable, b.billable);
  return { projectId: service.projectId, billable, tariff: line.tariff === null ? null : Number(line.tariff) };
}

/** What checkBooking reads of the service booked on (dates as YYYY-MM-DD, the tariff as decimal text). */
interface BookedService {
  id: string;
  name: string;
  projectId: string;
  trackHours: boolean;
  status: string;
  invoiceMethod: string;
  from: string | null;
  until: string | null;
  projectName: string;
  projectClosed: boolean;
  /** the service line of the booked hour type, its tariff falling back to the hour type's */
  line: { billable: boolean; tariff: string | null } | null;
  /** the employee's assignments on the service */
  assignments: { startDate: string | null; endDate: string | null }[];
}

/**
 * Billable follows the service line; a booking may say false on a billable line of a
 * service invoiced on hours (time and expenses), and nothing else.
 */
export function resolveHoursBillable(invoiceMethod: string, lineBillable: boolean, given: boolean | null | undefined): boolean {
  if (given === null || given === undefined || given === lineBillable) return lineBillable;
  if (lineBillable && invoiceMethod === 'time_and_expenses') return false;
  throw new BookingRefused(
    'billable_not_allowed',
    lineBillable
      ? 'Every hour of a fixed-fee or subscription service is billable: billable must be true.'
      : 'The hour type is not billable on this service: billable must be false.',
  );
}

/**
 * A booking of hours: the row and its custom fields go through the transaction's reader, in a
 * transaction of our own. `satisfies` keeps the run's own type: the timer's stop books through it
 * with whichever write context it has.
 */
export const createHours = {
  async run(w: SqlWriteContext, input: CreateHoursInput): Promise<string> {
    const timing = timingOf(input) as Timing;
    const booked = await checkBooking(w, { ...input, date: timing.date, minutes: timing.minutes });
    const id = newEntityId('hours');
    // approval_status and created_at take their defaults; updated_at is set as Prisma's @updatedAt would
    await w.sql.insert('hour_registration', {
      id,
      employee_id: input.employeeId,
      project_id: booked.projectId,
      project_service_id: input.projectServiceId,
      hour_type_id: input.hourTypeId,
      start_date: day(timing.date),
      duration_minutes: timing.minutes,
      billable: booked.billable,
      description: input.description ?? null,
      tariff: booked.tariff,
      source: input.source ?? null,
      updated_at: w.now,
    });
    await writeCustomFields(w.sql, 'hours', id, input.customFields, 'create');
    return id;
  },
} satisfies EntityCreate<CreateHoursInput>;

/** The hours as stored, read with the row locked (dates as YYYY-MM-DD). */
interface LockedHours {
  employeeId: string;
  projectServiceId: string;
  hourTypeId: string;
  startDate: string;
  durationMinutes: number;
  billable: boolean;
  invoiceId: string | null;
  approvalStatus: string;
}

/**
 * The hours, and why they can no longer change, read with the row locked: a transition of its
 * week or an invoice that claims it updates the row, so it either waits for this write or is seen by it.
 */
async function lockedHours(w: SqlWriteContext, id: string): Promise<{ row: LockedHours; reason: string | null }> {
  // an edit has read it so already, with its weeks taken (lockWeeksOfHours): not read again
  const held = heldHours.get(w);
  const row = held?.id === id ? held.row : await readLockedHours(w, id);
  if (!row) throw new NotFoundError('hours', id);
  if (row.invoiceId) return { row, reason: 'invoiced' };
  if (row.approvalStatus === 'approved' || row.approvalStatus === 'submitted') return { row, reason: row.approvalStatus };
  return { row, reason: null };
}

async function readLockedHours(w: SqlWriteContext, id: string): Promise<LockedHours | undefined> {
  const [row] = await w.sql.read<LockedHours>(
    `SELECT employee_id AS "employeeId", project_service_id AS "projectServiceId", hour_type_id AS "hourTypeId",
            to_char(start_date, 'YYYY-MM-DD') AS "startDate", duration_minutes AS "durationMinutes", billable,
            invoice_id AS "invoiceId", approval_status AS "approvalStatus"
       FROM hour_registration
      WHERE environment_id = $1 AND id = $2 FOR UPDATE`,
    [id],
  );
  return row;
}

/** the hours a write transaction holds, as it read them locked (lockWeeksOfHours), for its `run` */
const heldHours = new WeakMap<SqlWriteContext, { id: string; row: LockedHours }>();

/**
 * The weeks an edit of the hours touches, taken before the row: the week they are in and the week the
 * edit moves them to. A week's transition takes its week and then its hours' rows; an edit that took
 * the row and then the week deadlocked with a submission of that week (and was refused as a
 * collision, not as locked). The weeks in one order, so two edits moving hours between the same two
 * weeks cannot wait in a ring. Another edit may move the hours between the first read and the row's
 * lock: then the weeks are taken anew. Ends holding the row, read as the edit's `run` needs it.
 */
async function lockWeeksOfHours(
  w: SqlWriteContext,
  id: string,
  to: { employeeId?: string | undefined; startDate?: string | undefined },
): Promise<void> {
  let [seen] = await w.sql.read<{ employeeId: string; startDate: string }>(
    `SELECT employee_id AS "employeeId", to_char(start_date, 'YYYY-MM-DD') AS "startDate"
       FROM hour_registration WHERE environment_id = $1 AND id = $2`,
    [id],
  );
  while (seen) {
    const target = to.startDate === undefined ? null : parseDateTime(to.startDate);
    const weeks = new Map<string, { employeeId: string; weekStart: Date }>();
    for (const [employeeId, date] of [
      [seen.employeeId, new Date(`${seen.startDate}T00:00:00.000Z`)],
      [to.employeeId ?? seen.employeeId, target ?? new Date(`${seen.startDate}T00:00:00.000Z`)],
    ] as const) {
      const weekStart = weekStartOf(date);
      weeks.set(`${employeeId}:${day(weekStart)}`, { employeeId, weekStart });
    }
    for (const key of [...weeks.keys()].sort()) {
      const week = weeks.get(key);
      if (week) await lockWeek(w, week.employeeId, week.weekStart);
    }
    // the row as the edit needs it, locked: read once (lockedHours takes it from here)
    const now = await readLockedHours(w, id);
    if (!now) return;
    if (now.employeeId === seen.employeeId && now.startDate === seen.startDate) {
      heldHours.set(w, { id, row: now });
      return;
    }
    seen = now;
  }
}

export const updateHours: EntityUpdate<UpdateHoursInput> = {
  lockFirst: lockWeeksOfHours,
  async run(w, id, input) {
    const { row: current, reason } = await lockedHours(w, id);
    if (reason) throw new BookingRefused('hours_locked', `The hours are ${reason}; they can no longer be changed.`);
    const timing = timingOf({
      startDate: input.startDate ?? current.startDate,
      endDate: input.endDate,
      durationMinutes:
        input.durationMinutes ?? (input.hours === undefined && !input.endDate ? current.durationMinutes : undefined),
      hours: input.hours,
    }) as Timing;
    const booking: Booking = {
      employeeId: input.employeeId ?? current.employeeId,
      projectServiceId: input.projectServiceId ?? current.projectServiceId,
      hourTypeId: input.hourTypeId ?? current.hourTypeId,
      projectId: input.projectId,
      date: timing.date,
      minutes: timing.minutes,
      billable: input.billable === undefined ? current.billable : input.billable,
      hoursId: id,
    };
    // a line that changed (other service or type) re-derives billable unless the booking says it
    if (input.billable === undefined && (input.projectServiceId || input.hourTypeId)) booking.billable = undefined;
    const booked = await checkBooking(w, booking);
    // undefined columns stay as they are
    await w.sql.update('hour_registration', id, {
      employee_id: booking.employeeId,
      project_id: booked.projectId,
      project_service_id: booking.projectServiceId,
      hour_type_id: booking.hourTypeId,
      start_date: day(timing.date),
      duration_minutes: timing.minutes,
      billable: booked.billable,
      description: input.description,
      source: input.source,
      // a rejected hour that is edited is open again, to be submitted anew
      approval_status: current.approvalStatus === 'rejected' ? 'open' : undefined,
      tariff:
        booking.projectServiceId !== current.projectServiceId || booking.hourTypeId !== current.hourTypeId
          ? booked.tariff
          : undefined,
      updated_at: w.now,
    });
    await writeCustomFields(w.sql, 'hours', id, input.customFields, 'update');
  },
};

/** Deletion (in the generic delete's transaction): refused while the hours are locked. */
export async function removeHours(w: SqlWriteContext, id: string): Promise<void> {
  const { reason } = await lockedHours(w, id);
  if (reason) throw new BookingRefused('hours_locked', `The hours are ${reason}; they can no longer be deleted.`);
  await deleteCustomFieldValues(w.sql, id);
  await w.sql.deleteById('hour_registration', id);
}
