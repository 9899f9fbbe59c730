import { z } from 'zod';
import { customFieldValuesSchema } from '../customfields/index.js';
import { dateInput, money } from '../shared/numbers.js';

/**
 * Write shape of a sale, in domain terms (reference: PostSales, also the PUT body).
 * A sale is for an organization or a person: `organizationId` or `personId`.
 * `divergentPaymentTermId` (2026-03) names one of the environment's payment terms. `linkedProjectIds` names
 * the projects shown as the sale's `linkedProjects`.
 */
const id = z.string().min(1).max(255);

/**
 * Reference fields whose data (competitors, teams, separate recipients) this
 * service does not keep: refused when given a value, so a client never believes it was stored.
 */
const notKept = (what: string) =>
  z.null({ error: `${what} is not kept by this service yet; leave it out or send null` }).optional();

const fields = {
  organizationId: id.nullable().optional(),
  personId: id.nullable().optional(),
  contactId: id.nullable().optional(),
  myOrganizationProfileId: id.nullable().optional(),
  responsibleEmployeeId: id.nullable().optional(),
  startDate: dateInput.nullable().optional(),
  expectedClosingDate: dateInput.nullable().optional(),
  expectedRevenue: money.nullable().optional(),
  chanceToScore: z.number().int().min(0).max(100).nullable().optional(),
  note: z.string().max(10_000).nullable().optional(),
  divergentPaymentTermId: id.nullable().optional(),
  linkedProjectIds: z.array(id).max(100).optional(),
  customFields: customFieldValuesSchema,
  progressId: id.nullable().optional(),
  sourceId: id.nullable().optional(),
  statusId: id.nullable().optional(),
  /** reference: a SalesReason object; its id is what is kept */
  reason: z.object({ id }).nullable().optional(),
  lostToCompetitor: notKept('lost_to_competitor'),
  teams: notKept('teams'),
  separateInvoiceRecipient: notKept('separate_invoice_recipient'),
};

const subject = z.string().trim().min(1).max(255);

export const createSaleInput = z.object({ subject, ...fields });
export const updateSaleInput = z.object({ subject: subject.optional(), ...fields });
export type CreateSaleInput = z.infer<typeof createSaleInput>;
export type UpdateSaleInput = z.infer<typeof updateSaleInput>;
