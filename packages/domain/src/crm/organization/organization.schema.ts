import { z } from 'zod';
import { writeSchemasOf } from '../../shared/entity/entity-write.js';
import { organization } from './organization.entity.js';

/** Write shapes of an organization, in domain terms. */
const text = z.string().max(10_000).nullable().optional();

export const debtorInput = z
  .object({
    provisionMethod: z.enum(['post', 'email']).nullable().optional(),
    sendInvoiceEmailToContact: z.boolean().optional(),
    provisionContactpersonId: z.string().min(1).nullable().optional(),
    sendInvoiceEmailToProjectContact: z.boolean().optional(),
    sendInvoiceEmailToFixedEmail: z.boolean().optional(),
    sendEmailEmail: text,
    sendInvoiceEmailToCc: z.boolean().optional(),
    cc: z.array(z.string().max(255)).max(50).optional(),
    attentionTo: z.enum(['none', 'contact', 'creditor']).nullable().optional(),
    attentionToPersonId: z.string().min(1).nullable().optional(),
    attentionToFixed: text,
    autocollect: z.boolean().optional(),
    reminders: z.boolean().optional(),
    sendEmailType: z.enum(['fixed', 'contact']).nullable().optional(),
    autosendSubscriptionInvoice: z.boolean().optional(),
  })
  .optional();
export type DebtorInput = z.infer<typeof debtorInput>;

/** The writes of an organization: its declared fields (see organization.entity.ts), and its debtor settings. */
const writes = writeSchemasOf(organization);

export const createOrganizationInput = writes.create.extend({ debtor: debtorInput });
export type CreateOrganizationInput = z.infer<typeof createOrganizationInput>;

export const updateOrganizationInput = writes.update.extend({ debtor: debtorInput });
export type UpdateOrganizationInput = z.infer<typeof updateOrganizationInput>;
