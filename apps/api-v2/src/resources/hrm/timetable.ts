import type { Timetable } from '@bo/domain/hrm/timetable/timetable.entity';
import { createTimetableInput, type TimetableWeek, updateTimetableInput } from '@bo/domain/hrm/timetable/timetable.schema';
import { v2DateTime, v2Names } from '../v2-names.js';
import { v2Resource } from '../v2-resource.js';
import { employeeSimpleV2 } from './employee.js';

const DAYS = ['day1', 'day2', 'day3', 'day4', 'day5', 'day6', 'day7'] as const;

/** v2 spells the days `day_1` … `day_7` (reference: TimetableWeek). */
const names = v2Names(Object.fromEntries(DAYS.map((d, n) => [`day_${n + 1}`, d])));

function weekV2(w: TimetableWeek | null): Record<string, unknown> | null {
  if (!w) return null;
  return Object.fromEntries(
    DAYS.map((d, n) => [
      `day_${n + 1}`,
      { start_time: w[d]?.startTime ?? null, end_time: w[d]?.endTime ?? null, hours: w[d]?.hours ?? 0 },
    ]),
  );
}

/** hrm/timetable (reference: GetTimetable; PostTimetable/PutTimetable), validated strictly (2024-10). */
export const timetableV2 = v2Resource<Timetable>({
  path: 'hrm/timetable',
  procedures: (c) => c.hrm.timetable,
  inputs: { create: createTimetableInput, update: updateTimetableInput, remove: true },
  names,
  read: (t) => ({
    id: t.id,
    employee: t.employee ? employeeSimpleV2(t.employee) : null,
    created_at: v2DateTime(t.createdAt),
    updated_at: v2DateTime(t.updatedAt),
    hourly_sales_tariff: t.hourlySalesTariff,
    hourly_cost_tariff: t.hourlyCostTariff,
    has_odd_weeks: t.hasOddWeeks,
    even_week: weekV2(t.evenWeek),
    odd_week: weekV2(t.oddWeek),
    start_date: t.startDate,
    end_date: t.endDate,
    productivity_target: t.productivityTarget,
    should_write_hours: t.shouldWriteHours,
  }),
  documentAsBuilt: ['employee', 'even_week', 'odd_week'],
  // a fresh environment has no timetables: tests/hrm-*.test.ts check the shape
  conformance: false,
});
