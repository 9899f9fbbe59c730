import { z } from 'zod';
import { defineEntity, f } from '../shared/entity/index.js';
import { targets } from '../shared/entity/targets.js';

/** The columns an organization's and a person's addresses share. */
const addressFields = {
  id: f.id(),
  type: f.string(),
  line1: f.string({ column: 'line_1' }),
  line2: f.string({ column: 'line_2' }),
  postalCode: f.string(),
  province: f.string(),
  locality: f.string(),
  countryCode: f.string(),
  countryId: f.string({ references: () => targets.country }),
};

export const organizationAddress = defineEntity({
  type: 'address',
  table: 'organization_address',
  module: 'crm',
  fields: {
    ...addressFields,
    /** visiting or postal */
    kind: f.requiredString({ writable: false }),
  },
});

export const personAddress = defineEntity({
  type: 'address',
  table: 'person_address',
  module: 'crm',
  fields: addressFields,
});

/** An address as its owner embeds it. */
export const addressShape = z.object({
  id: z.string(),
  type: z.string().nullable(),
  line1: z.string().nullable(),
  line2: z.string().nullable(),
  postalCode: z.string().nullable(),
  province: z.string().nullable(),
  locality: z.string().nullable(),
  countryCode: z.string().nullable(),
  countryId: z.string().nullable(),
});

/** An address as a write gives it; null removes it, absent leaves it. */
export const addressInput = z
  .object({
    type: z.string().max(10_000).nullable().optional(),
    line1: z.string().max(10_000).nullable().optional(),
    line2: z.string().max(10_000).nullable().optional(),
    postalCode: z.string().max(10_000).nullable().optional(),
    province: z.string().max(10_000).nullable().optional(),
    locality: z.string().max(10_000).nullable().optional(),
    countryCode: z.string().max(10_000).nullable().optional(),
    countryId: z.string().max(10_000).nullable().optional(),
  })
  .nullable()
  .optional();
export type AddressInput = z.infer<typeof addressInput>;
