import type { AddressInput } from './organization/organization.schema.js';

/** Column values of a v2 address (reference: PostAddress), shared by organizations and persons. */
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
