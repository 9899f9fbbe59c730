import { z } from 'zod';

const text = z.string().max(10_000).nullable().optional();

/** reference: MyOrganizationProfile, plus main_profile (2025-05); writes are our addition */
const fields = {
  organization_id: z.string().min(1).nullable().optional(),
  coc_code: text,
  vat_number: text,
  bank_account: text,
  blocked: z.boolean().optional(),
  main_profile: z.boolean().optional(),
};

export const createMyOrganizationProfileSchema = z.object({ name: z.string().trim().min(1).max(255), ...fields });
export type CreateMyOrganizationProfileInput = z.infer<typeof createMyOrganizationProfileSchema>;

export const updateMyOrganizationProfileSchema = z.object({ name: z.string().trim().min(1).max(255).optional(), ...fields });
export type UpdateMyOrganizationProfileInput = z.infer<typeof updateMyOrganizationProfileSchema>;
