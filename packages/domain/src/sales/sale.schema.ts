import { z } from 'zod';
import { customFieldValuesSchema } from '../customfields/index.js';
import { dateInput, money } from '../shared/numbers.js';

/**
 * v2 write shape of sales/sales (reference: PostSales, also the PUT body).
 * A sale is for an organization or a person: `organization_id` or `person_id`.
 * `divergent_payment_term_id` (2026-03) is stored as given. `linked_project_ids`
 * is our addition: the projects shown as the sale's `linked_projects`.
 */
const id = z.string().min(1).max(255);

/**
 * Reference fields whose lookup tables (progress, source, status, reason,
 * competitor, teams, separate recipient) this service does not keep yet:
 * refused when given a value, so a client never believes it was stored.
 */
const notKept = (what: string) =>
  z.null({ error: `${what} is not kept by this service yet; leave it out or send null` }).optional();

const fields = {
  organization_id: id.nullable().optional(),
  person_id: id.nullable().optional(),
  contact_id: id.nullable().optional(),
  my_organization_profile_id: id.nullable().optional(),
  responsible_employee_id: id.nullable().optional(),
  start_date: dateInput.nullable().optional(),
  expected_closing_date: dateInput.nullable().optional(),
  expected_revenue: money.nullable().optional(),
  chance_to_score: z.number().int().min(0).max(100).nullable().optional(),
  note: z.string().max(10_000).nullable().optional(),
  divergent_payment_term_id: id.nullable().optional(),
  linked_project_ids: z.array(id).max(100).optional(),
  custom_fields: customFieldValuesSchema,
  progress_id: notKept('progress_id (sales progress)'),
  source_id: notKept('source_id (sales source)'),
  status_id: notKept('status_id (sales status)'),
  reason: notKept('reason (sales reason)'),
  lost_to_competitor: notKept('lost_to_competitor'),
  teams: notKept('teams'),
  separate_invoice_recipient: notKept('separate_invoice_recipient'),
};

const subject = z.string().trim().min(1).max(255);

export const createSaleSchema = z.object({ subject, ...fields });
export const updateSaleSchema = z.object({ subject: subject.optional(), ...fields });
export type CreateSaleInput = z.infer<typeof createSaleSchema>;
export type UpdateSaleInput = z.infer<typeof updateSaleSchema>;
