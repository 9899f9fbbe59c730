import { z } from 'zod';
import { BudgetOutput } from '../service/project-service.v3.schema.js';

/** v3 Project.ProjectOutput (project.get, project.acquisition.approve). */
export const ProjectOutput = z.object({
  id: z.string(),
  name: z.string(),
  projectNumber: z.string().nullable(),
  phase: z.enum(['acquisition', 'execution']),
  billable: z.boolean(),
  organizationId: z.string().nullable(),
  personId: z.string().nullable(),
  contactId: z.string().nullable(),
  projectManager: z.object({ id: z.string(), name: z.string() }).nullable(),
  projectStatus: z.object({ id: z.string(), label: z.string(), color: z.string().nullable(), isClosed: z.boolean() }).nullable(),
  note: z.string().nullable(),
  startDate: z.iso.date().nullable(),
  endDate: z.iso.date().nullable(),
  invoiceReference: z.string().nullable(),
  canRegisterMileage: z.boolean(),
  employees: z.array(z.object({ id: z.string(), employeeId: z.string(), name: z.string(), tariff: z.number().nullable() })),
  services: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      kind: z.enum(['invoiceable', 'acquisition', 'advance']),
      status: z.enum(['open', 'invoiced']),
    }),
  ),
  budget: BudgetOutput,
  customFields: z.array(z.object({ name: z.string(), value: z.string().nullable() })).meta({
    description: 'every project custom field, with its value or null',
  }),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export const ApproveAcquisitionProject = z.object({ projectId: z.string().min(1).max(200) }).strict();
export type ProjectOutputShape = z.infer<typeof ProjectOutput>;
