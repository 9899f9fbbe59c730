import { createAssignmentInput, updateAssignmentInput } from '@bo/domain/projects/assignment/assignment.schema';
import { type Assignment, assignment } from '@bo/domain/projects/assignment/assignment.entity';
import { hourTypeV2 } from '../hours/hourstype.js';
import { employeeSimpleV2, projectSimpleV2 } from '../shared/simple.js';
import { v2DateTime, v2Names } from '../v2-names.js';
import { v2Resource } from '../v2-resource.js';
import { assignmentStatusV2 } from './reference.js';

const names = v2Names({
  projecthourstype_id: 'projectHourTypeId',
  projectservice_id: 'projectServiceId',
  projecthourstype: 'projectHourType',
  projectservice: 'projectService',
});

/** projects/assignment (reference: GetAssignment); POST answers the id only, PUT cannot move the period. */
export const assignmentV2 = v2Resource<Assignment>({
  path: 'projects/assignment',
  entity: assignment,
  inputs: { create: createAssignmentInput, update: updateAssignmentInput, remove: true },
  procedures: (c) => c.projects.assignment,
  names,
  read: (a) => {
    const line = a.projectHourType;
    return {
      id: a.id,
      name: a.name,
      description: a.description,
      start_date: a.startDate,
      end_date: a.endDate,
      hours_total: a.hours,
      hours: a.hours,
      hours_type: a.hoursType,
      spread: [],
      status: a.status ? assignmentStatusV2(a.status) : null,
      project: projectSimpleV2(a.project),
      projectservice: a.projectService
        ? {
            id: a.projectService.id,
            name: a.projectService.name,
            default_service_id: a.projectService.defaultServiceId,
            revenue_group_id: a.projectService.revenueGroupId,
            use_in_resource_planner: a.projectService.useInResourcePlanner,
          }
        : null,
      projecthourstype: line
        ? {
            id: line.id,
            hourstype: line.hourType ? hourTypeV2(line.hourType) : null,
            color: line.hourType?.color ?? null,
            budgeted_amount: line.budgetedAmount,
            tariff: line.tariff,
            billable: line.billable,
          }
        : null,
      employees: a.employees.map(employeeSimpleV2),
      spent_amount: null,
      is_planned: a.employees.length > 0,
      use_spread: a.useSpread,
      created_at: v2DateTime(a.createdAt),
      updated_at: v2DateTime(a.updatedAt),
    };
  },
});
