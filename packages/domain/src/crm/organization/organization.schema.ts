import { z } from 'zod';
import { customFieldValuesSchema } from '../../customfields/index.js';
import { addressInput } from '../address.entity.js';

/** Write shapes of an organization, in domain terms. */
const text = z.string().max(10_000).nullable().optional();
const reference = z
  .object({ id: z.string().min(1) })
  .nullable()
  .optional();

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

const organizationFields = {
  cocCode: text,
  vatNumber: text,
  email: text,
  phone: text,
  url: text,
  note: text,
  linkedinUrl: text,
  hasDifferentPostalAddress: z.boolean().optional(),
  relationType: reference,
  industry: reference,
  organizationSize: reference,
  visitingAddress: addressInput,
  postalAddress: addressInput,
  invoiceReceiver: text,
  allowAutocollect: z.boolean().optional(),
  bankAccount: text,
  bankBic: text,
  relationNumber: text,
  isActive: z.boolean().optional(),
  sendInvoiceEmailToContact: z.boolean().optional(),
  sendInvoiceEmailToProjectContact: z.boolean().optional(),
  sendInvoiceEmailToFixedEmail: z.boolean().optional(),
  sendInvoiceEmailToCc: z.boolean().optional(),
  relationManager: reference,
  /** the whole set of the organization's interests */
  interests: z.array(z.object({ id: z.string().min(1) })).optional(),
  /** persons linked as contacts, added or updated per person */
  contacts: z
    .array(
      z.object({
        personId: z.string().min(1),
        workFunction: text,
        workEmail: text,
        workPhone: text,
        workMobile: text,
      }),
    )
    .optional(),
  debtor: debtorInput,
  customFields: customFieldValuesSchema,
};

export const createOrganizationInput = z.object({
  name: z.string().trim().min(1, 'name must not be empty').max(255),
  ...organizationFields,
});
export type CreateOrganizationInput = z.infer<typeof createOrganizationInput>;

export const updateOrganizationInput = z.object({
  name: z.string().trim().min(1, 'name must not be empty').max(255).optional(),
  ...organizationFields,
});
export type UpdateOrganizationInput = z.infer<typeof updateOrganizationInput>;
