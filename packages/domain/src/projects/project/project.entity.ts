import { contactPerson } from '../../crm/contactperson/contactperson.entity.js';
import { myOrganizationProfileTarget } from '../../crm/myorganization/myorganizationprofile.target.js';
import { z } from 'zod';
import { organization } from '../../crm/organization/organization.entity.js';
import { person } from '../../crm/person/person.entity.js';
import { customFieldValueSchema } from '../../customfields/custom-field-value.schema.js';
import { employee } from '../../hrm/employee/employee.entity.js';
import { defineEntity, f, type TargetEntity } from '../../shared/entity/index.js';
import { employeeSimple, organizationSimple, personSimple } from '../../shared/relation-shapes.js';
import { employeeOfProjectShape, projectEmployee } from '../projectemployee/projectemployee.entity.js';
import { projectStatus } from '../reference/projectstatus.entity.js';
import { projectService } from '../service/project-service.entity.js';
import { serviceOfProjectShape } from '../service/project-service.shapes.js';
import { projectStatusReference } from './project.shapes.js';

/** A project: its customer, manager, status, phase, employees, services and custom fields. */
export const project = defineEntity({
  type: 'project',
  table: 'project',
  module: 'projects',
  nameField: 'name',
  fields: {
    id: f.id(),
    name: f.requiredString(),
    projectNumber: f.string(),
    /** acquisition or execution */
    phase: f.requiredString(),
    billable: f.boolean(),
    organization: f.ref((): TargetEntity => organization, organizationSimple, { column: 'organization_id', restricted: true }),
    person: f.ref((): TargetEntity => person, personSimple, { column: 'person_id', restricted: true }),
    contactId: f.string({ references: (): TargetEntity => contactPerson }),
    myOrganizationProfileId: f.string({ references: (): TargetEntity => myOrganizationProfileTarget }),
    projectManager: f.ref((): TargetEntity => employee, employeeSimple, { column: 'project_manager_id', restricted: true }),
    projectStatus: f.ref((): TargetEntity => projectStatus, projectStatusReference, { column: 'project_status_id' }),
    note: f.string(),
    startDate: f.date(),
    endDate: f.date(),
    invoiceReference: f.string(),
    canRegisterMileage: f.boolean(),
    employees: f.many((): TargetEntity => projectEmployee, employeeOfProjectShape, {
      remote: 'project_id',
      orderBy: (a) => `${a}.created_at, ${a}.id`,
      filter: false,
      writable: false,
    }),
    services: f.many((): TargetEntity => projectService, serviceOfProjectShape, {
      remote: 'project_id',
      orderBy: (a) => `${a}.created_at, ${a}.id`,
      filter: false,
      writable: false,
    }),
    customFields: f.customFields('project', customFieldValueSchema),
    /** what sent invoices (credits subtracted) have billed of the project, exact (invoicing) */
    invoicedAmount: f.computed(
      'string',
      z.string(),
      (t) => `COALESCE((SELECT sum(il.amount) FROM invoice_line il JOIN invoice i ON i.id = il.invoice_id
        WHERE il.environment_id = ${t}.environment_id AND i.status <> 'draft'
          AND (il.project_id = ${t}.id OR (il.project_id IS NULL AND i.project_id = ${t}.id))), 0)::numeric(14,2)::text`,
    ),
    createdAt: f.createdAt(),
    updatedAt: f.updatedAt(),
  },
});
export type Project = z.infer<typeof project.schema>;
