import { z } from 'zod';
import { customFieldValuesSchema } from '../../customfields/index.js';
import { dateInput } from '../../shared/numbers.js';

/**
 * Write shape of a project, in domain terms. `customFields` are `[{name, value}]`,
 * validated against the project custom-field definitions; `phase` (acquisition or
 * execution) is how a project starts in acquisition.
 */
const id = z.string().min(1).nullable().optional();
const text = z.string().max(10_000).nullable().optional();
const fields = {
  projectManagerId: id,
  projectStatusId: id,
  myOrganizationProfileId: id,
  personId: id,
  organizationId: id,
  contactId: id,
  billable: z.boolean().optional(),
  canRegisterMileage: z.boolean().optional(),
  projectNumber: z.string().max(255).nullable().optional(),
  note: text,
  startDate: dateInput.nullable().optional(),
  endDate: dateInput.nullable().optional(),
  invoiceReference: z.string().max(255).nullable().optional(),
  phase: z.enum(['acquisition', 'execution']).optional(),
  customFields: customFieldValuesSchema,
};

export const createProjectInput = z.object({ name: z.string().trim().min(1).max(255), ...fields });
export const updateProjectInput = z.object({ name: z.string().trim().min(1).max(255).optional(), ...fields });
export type CreateProjectInput = z.infer<typeof createProjectInput>;
export type UpdateProjectInput = z.infer<typeof updateProjectInput>;

/** The project was won: it and its acquisition services move into execution. */
export const approveAcquisitionInput = z.object({ projectId: z.string().min(1).max(200) });
export type ApproveAcquisitionInput = z.infer<typeof approveAcquisitionInput>;
