import { columnsOf } from '../../shared/entity/columns.js';
import type { EntityUpdate } from '../../shared/entity/index.js';
import type { UpdateContactPersonInput } from './contactperson.schema.js';

export const updateContactPerson: EntityUpdate<UpdateContactPersonInput> = {
  async run({ sql, now }, id, input) {
    // the named columns (the others keep theirs) and updated_at, one statement queued
    await sql.update('contact_person', id, {
      ...columnsOf({
        personId: input.personId,
        isActive: input.isActive,
        workFunction: input.workFunction,
        workEmail: input.workEmail,
        workPhone: input.workPhone,
        workMobile: input.workMobile,
      }),
      updated_at: now,
    });
  },
};
