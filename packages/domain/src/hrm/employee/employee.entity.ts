import { z } from 'zod';
import { userTarget } from '../../admin/user.target.js';
import { defineEntity, entityOfTable, f, type TargetEntity } from '../../shared/entity/index.js';
import { civilStatus, employeeStatus, employeeType, team } from '../reference/hrm-lookups.entity.js';

/**
 * The crm person, found by its table: crm/person embeds employees, so importing its
 * module here would make an import cycle that leaves one of the two undefined.
 */
const person = (): TargetEntity => {
  const e = entityOfTable('person');
  if (!e) throw new Error('the person entity is not declared');
  return e;
};

/** An employee of the environment: HR data, guarded by the hrm right. */
export const employee = defineEntity({
  type: 'employee',
  table: 'employee',
  module: 'hrm',
  nameField: 'name',
  defaultSort: [{ path: 'name', dir: 'asc' }],
  fields: {
    id: f.id(),
    personId: f.string({ references: person }),
    /** the crm person the employee is (2023-04): `person.*` paths filter through it */
    person: f.ref(
      person,
      z.object({
        id: z.string(),
        fullName: z.string().nullable(),
        firstName: z.string().nullable(),
        familyNamePrefix: z.string().nullable(),
        familyName: z.string().nullable(),
        initials: z.string().nullable(),
      }),
      { column: 'person_id', writable: false, restricted: true },
    ),
    /** the employee's user account; a blocked (inactive) user is one condition of ending employment (2023-11) */
    userId: f.string({ references: (): TargetEntity => userTarget }),
    /** the person's full name while linked to one (kept by every write), otherwise its own */
    name: f.requiredString(),
    function: f.string(),
    /** active or inactive, following the status */
    employmentStatus: f.requiredString(),
    status: f.ref((): TargetEntity => employeeStatus, z.object({ id: z.string(), key: z.string(), label: z.string() }), {
      column: 'status_id',
      writable: false,
    }),
    supervisor: f.ref(
      (): TargetEntity => employee,
      z.object({ id: z.string(), personId: z.string().nullable(), name: z.string() }),
      { column: 'supervisor_id', writable: false },
    ),
    civilStatus: f.ref((): TargetEntity => civilStatus, z.object({ id: z.string(), label: z.string() }), {
      column: 'civil_status_id',
      writable: false,
    }),
    employeeType: f.ref((): TargetEntity => employeeType, z.object({ id: z.string(), label: z.string() }), {
      column: 'employee_type_id',
      writable: false,
    }),
    teams: f.many((): TargetEntity => team, z.object({ id: z.string(), name: z.string() }), {
      remote: 'employee_id',
      through: { table: 'team_employee', targetColumn: 'team_id' },
      orderBy: (a) => `${a}.name, ${a}.id`,
      writable: false,
    }),
    workEmail: f.string(),
    workPhone: f.string(),
    workMobile: f.string(),
    bankAccount: f.string(),
    hourlySalesTariff: f.decimal(),
    hourlyCostTariff: f.decimal(),
    createdAt: f.createdAt(),
    /**
     * 2024-10: the employee has hours on a day no timetable covers; flagged, never refused
     * (hours are booked before a timetable is corrected, and the flag says where to look)
     */
    hasHoursOutsideTimetables: f.computed(
      'boolean',
      z.boolean(),
      (t) =>
        `EXISTS (SELECT 1 FROM hour_registration h
                  WHERE h.environment_id = ${t}.environment_id AND h.employee_id = ${t}.id
                    AND NOT EXISTS (SELECT 1 FROM timetable tt
                                     WHERE tt.environment_id = ${t}.environment_id AND tt.employee_id = ${t}.id
                                       AND tt.start_date <= h.start_date AND (tt.end_date IS NULL OR tt.end_date >= h.start_date)))`,
      { filter: true },
    ),
    updatedAt: f.updatedAt(),
  },
});

/** How other modules embed an employee; without the hrm right they see only `{id, name}`. */
export const employeeReference = z.object({
  id: z.string(),
  personId: z.string().nullable(),
  name: z.string(),
  function: z.string().nullable(),
  employmentStatus: z.string(),
  workEmail: z.string().nullable(),
  createdAt: z.date(),
  updatedAt: z.date(),
});

export type Employee = z.infer<typeof employee.schema>;
