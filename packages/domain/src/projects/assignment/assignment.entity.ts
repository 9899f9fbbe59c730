import { z } from 'zod';
import { employee } from '../../hrm/employee/employee.entity.js';
import { defineEntity, f, type TargetEntity } from '../../shared/entity/index.js';
import { project } from '../project/project.entity.js';
import { projectReference } from '../project/project.shapes.js';
import { assignmentStatus, assignmentStatusShape } from '../reference/assignmentstatus.entity.js';
import { projectService, serviceHourType } from '../service/project-service.entity.js';
import { serviceHourTypeShape } from '../service/project-service.shapes.js';

/** Work planned for employees on an hour type of a project service. */
export const assignment = defineEntity({
  type: 'assignment',
  table: 'assignment',
  module: 'projects',
  fields: {
    id: f.id(),
    name: f.string(),
    description: f.string(),
    project: f.ref((): TargetEntity => project, projectReference, { column: 'project_id', writable: false }),
    projectService: f.ref(
      (): TargetEntity => projectService,
      z.object({
        id: z.string(),
        name: z.string(),
        defaultServiceId: z.string().nullable(),
        revenueGroupId: z.string().nullable(),
        useInResourcePlanner: z.boolean(),
      }),
      { column: 'project_service_id', writable: false },
    ),
    /** the hour type line of the service the work is planned on */
    projectHourType: f.ref((): TargetEntity => serviceHourType, serviceHourTypeShape, { column: 'project_hour_type_id' }),
    /** the period is set when the assignment is created */
    startDate: f.date(),
    endDate: f.date(),
    /** per_week or total */
    hoursType: f.requiredString(),
    hours: f.decimal(),
    useSpread: f.boolean(),
    status: f.ref((): TargetEntity => assignmentStatus, assignmentStatusShape, { column: 'assignment_status_id' }),
    employees: f.many(
      (): TargetEntity => employee,
      z.object({ id: z.string(), personId: z.string().nullable(), name: z.string() }),
      {
        remote: 'assignment_id',
        through: { table: 'assignment_employee', targetColumn: 'employee_id' },
        orderBy: (a) => `${a}.name, ${a}.id`,
        restricted: true,
      },
    ),
    createdAt: f.createdAt(),
    updatedAt: f.updatedAt(),
  },
});
export type Assignment = z.infer<typeof assignment.schema>;
