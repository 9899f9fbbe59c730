import { z } from 'zod';

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
