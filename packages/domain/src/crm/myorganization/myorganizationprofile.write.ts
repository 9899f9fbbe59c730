import type { EntityTransaction } from '../../shared/entity/index.js';
import type { UpdateMyOrganizationProfileInput } from './myorganizationprofile.schema.js';

export function profileColumns(input: UpdateMyOrganizationProfileInput) {
  return {
    name: input.name,
    organizationId: input.organizationId,
    cocCode: input.cocCode,
    vatNumber: input.vatNumber,
    bankAccount: input.bankAccount,
    blocked: input.blocked,
    mainProfile: input.mainProfile,
  };
}

/** There is one main profile: making one the main profile makes the others not. */
export async function keepOneMainProfile(
  tx: EntityTransaction,
  mainId: string,
  input: UpdateMyOrganizationProfileInput,
  now: Date,
) {
  if (input.mainProfile !== true) return;
  await tx.myOrganizationProfile.updateMany({
    where: { mainProfile: true, id: { not: mainId } },
    data: { mainProfile: false, updatedAt: now },
  });
}
