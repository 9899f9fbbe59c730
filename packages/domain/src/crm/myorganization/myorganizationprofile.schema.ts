import { z } from 'zod';

const text = z.string().max(10_000).nullable().optional();

/** Write shapes of a company profile, in domain terms. */
const fields = {
  organizationId: z.string().min(1).nullable().optional(),
  cocCode: text,
  vatNumber: text,
  bankAccount: text,
  blocked: z.boolean().optional(),
  mainProfile: z.boolean().optional(),
};

export const createMyOrganizationProfileInput = z.object({ name: z.string().trim().min(1).max(255), ...fields });
export type CreateMyOrganizationProfileInput = z.infer<typeof createMyOrganizationProfileInput>;

export const updateMyOrganizationProfileInput = z.object({ name: z.string().trim().min(1).max(255).optional(), ...fields });
export type UpdateMyOrganizationProfileInput = z.infer<typeof updateMyOrganizationProfileInput>;
