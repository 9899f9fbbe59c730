import { assertReferencesExist } from '../../shared/references.js';
import type { Db } from '../../shared/resources/definition.js';
import type { UpdateMyOrganizationProfileInput } from './myorganizationprofile.schema.js';

export async function assertProfileReferences(tx: Db, environmentId: string, input: UpdateMyOrganizationProfileInput) {
  await assertReferencesExist(tx, environmentId, [{ path: 'organization_id', table: 'organization', id: input.organization_id }]);
}

export function profileColumns(input: UpdateMyOrganizationProfileInput) {
  return {
    name: input.name,
    organizationId: input.organization_id,
    cocCode: input.coc_code,
    vatNumber: input.vat_number,
    bankAccount: input.bank_account,
    blocked: input.blocked,
    mainProfile: input.main_profile,
  };
}

/** There is one main profile: making one the main profile makes the others not. */
export async function keepOneMainProfile(tx: Db, mainId: string, input: UpdateMyOrganizationProfileInput, now: Date) {
  if (input.main_profile !== true) return;
  await tx.myOrganizationProfile.updateMany({
    where: { mainProfile: true, id: { not: mainId } },
    data: { mainProfile: false, updatedAt: now },
  });
}
