import { z } from 'zod';
import { customFieldValuesSchema } from '../../customfields/index.js';

/** Write shapes of crm/organization (reference: PostOrganization), snake_case as v2 sends them. */
const text = z.string().max(10_000).nullable().optional();
const reference = z
  .object({ id: z.string().min(1) })
  .nullable()
  .optional();

export const addressInputSchema = z
  .object({
    type: text,
    line_1: text,
    line_2: text,
    postal_code: text,
    province: text,
    locality: text,
    country_code: text,
    country_id: text,
  })
  .nullable()
  .optional();
export type AddressInput = z.infer<typeof addressInputSchema>;

/** reference: PostDebtor; the send_invoice_email_to_* booleans also exist at the top level */
export const debtorInputSchema = z
  .object({
    provision_method: z.enum(['post', 'email']).nullable().optional(),
    send_invoice_email_to_contact: z.boolean().optional(),
    provision_contactperson_id: z.string().min(1).nullable().optional(),
    send_invoice_email_to_project_contact: z.boolean().optional(),
    send_invoice_email_to_fixed_email: z.boolean().optional(),
    send_email_email: text,
    send_invoice_email_to_cc: z.boolean().optional(),
    cc: z.array(z.string().max(255)).max(50).optional(),
    attention_to: z.enum(['none', 'contact', 'creditor']).nullable().optional(),
    attention_to_person_id: z.string().min(1).nullable().optional(),
    attention_to_fixed: text,
    autocollect: z.boolean().optional(),
    reminders: z.boolean().optional(),
    send_email_type: z.enum(['fixed', 'contact']).nullable().optional(),
    autosend_subscription_invoice: z.boolean().optional(),
  })
  .optional();
export type DebtorInput = z.infer<typeof debtorInputSchema>;

const organizationFields = {
  coc_code: text,
  vat_number: text,
  email: text,
  phone: text,
  url: text,
  note: text,
  linkedin_url: text,
  has_different_postal_address: z.boolean().optional(),
  relation_type: reference,
  industry: reference,
  organizationsize: reference,
  visiting_address: addressInputSchema,
  postal_address: addressInputSchema,
  invoice_receiver: text,
  allow_autocollect: z.boolean().optional(),
  bank_account: text,
  bank_bic: text,
  relation_number: text,
  is_active: z.boolean().optional(),
  send_invoice_email_to_contact: z.boolean().optional(),
  send_invoice_email_to_project_contact: z.boolean().optional(),
  send_invoice_email_to_fixed_email: z.boolean().optional(),
  send_invoice_email_to_cc: z.boolean().optional(),
  relation_manager: reference,
  /** the whole set of the organization's interests */
  interests: z.array(z.object({ id: z.string().min(1) })).optional(),
  /** persons linked as contacts, added or updated per person_id (reference: PostContactPersonFk) */
  linked_persons_contacts: z
    .array(
      z.object({
        person_id: z.string().min(1),
        work_function: text,
        work_email: text,
        work_phone: text,
        work_mobile: text,
      }),
    )
    .optional(),
  debtor: debtorInputSchema,
  custom_fields: customFieldValuesSchema,
};

export const createOrganizationSchema = z.object({
  name: z.string().trim().min(1, 'name must not be empty').max(255),
  ...organizationFields,
});
export type CreateOrganizationInput = z.infer<typeof createOrganizationSchema>;

export const updateOrganizationSchema = z.object({
  name: z.string().trim().min(1, 'name must not be empty').max(255).optional(),
  ...organizationFields,
});
export type UpdateOrganizationInput = z.infer<typeof updateOrganizationSchema>;
