import { z } from 'zod';
import { customFieldValuesSchema } from '../../customfields/index.js';
import { dateInput } from '../../shared/numbers.js';

/**
 * v2 write shape of projects/project (reference: PostProject). `custom_fields`
 * are `[{name, value}]`, validated against the project custom-field definitions;
 * `phase` (acquisition or execution) is our addition: how a project starts in acquisition.
 */
const id = z.string().min(1).nullable().optional();
const text = z.string().max(10_000).nullable().optional();
const fields = {
  project_manager_id: id,
  project_status_id: id,
  my_organization_profile_id: id,
  person_id: id,
  organization_id: id,
  contact_id: id,
  billable: z.boolean().optional(),
  can_register_mileage: z.boolean().optional(),
  project_number: z.string().max(255).nullable().optional(),
  note: text,
  start_date: dateInput.nullable().optional(),
  end_date: dateInput.nullable().optional(),
  invoice_reference: z.string().max(255).nullable().optional(),
  phase: z.enum(['acquisition', 'execution']).optional(),
  custom_fields: customFieldValuesSchema,
};

export const createProjectSchema = z.object({ name: z.string().trim().min(1).max(255), ...fields });
export const updateProjectSchema = z.object({ name: z.string().trim().min(1).max(255).optional(), ...fields });
export type CreateProjectInput = z.infer<typeof createProjectSchema>;
export type UpdateProjectInput = z.infer<typeof updateProjectSchema>;
