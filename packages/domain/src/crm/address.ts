import { z } from 'zod';

const text = z.string().max(10_000).nullable().optional();

/** A v2-named address input (reference: PostAddress); persons still write with it. */
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

/** Column values of a v2 address (reference: PostAddress). */
export function addressColumns(address: NonNullable<AddressInput>) {
  return {
    type: address.type ?? null,
    line1: address.line_1 ?? null,
    line2: address.line_2 ?? null,
    postalCode: address.postal_code ?? null,
    province: address.province ?? null,
    locality: address.locality ?? null,
    countryCode: address.country_code ?? null,
    countryId: address.country_id ?? null,
  };
}
