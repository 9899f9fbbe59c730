import type { EntityCreate } from '../../shared/entity/index.js';
import { ConflictError } from '../../shared/errors.js';
import { newEntityId } from '../../shared/ids.js';
import type { CreateContactPersonInput } from './contactperson.schema.js';

/** Links a person to an organization; a second link of the same pair is refused. */
export const createContactPerson: EntityCreate<CreateContactPersonInput> = {
  async run({ sql, now }, input) {
    // read first, so that the refusal names the link there is (the unique key would only say there is one)
    const [existing] = await sql.read<{ id: string }>(
      'SELECT id FROM contact_person WHERE environment_id = $1 AND organization_id = $2 AND person_id = $3',
      [input.organizationId, input.personId],
    );
    if (existing) throw new ConflictError(`the person is a contact of this organization already (${existing.id})`);
    const id = newEntityId('contactperson');
    await sql.insert('contact_person', {
      id,
      organization_id: input.organizationId,
      person_id: input.personId,
      is_active: input.isActive ?? true,
      work_function: input.workFunction ?? null,
      work_email: input.workEmail ?? null,
      work_phone: input.workPhone ?? null,
      work_mobile: input.workMobile ?? null,
      updated_at: now,
    });
    return id;
  },
};
