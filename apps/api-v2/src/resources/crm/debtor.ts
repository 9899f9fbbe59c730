import type { Debtor } from '@bo/domain/crm/debtor/debtor.entity';
import { v2Names } from '../v2-names.js';
import { v2Resource } from '../v2-resource.js';
import { relationTypeV2 } from './reference.js';

const names = v2Names();

/** crm/debtor (reference: DebtorList): one of organization and person is set; read-only. */
export const debtorV2 = v2Resource<Debtor>({
  path: 'crm/debtor',
  procedures: (c) => c.crm.debtor,
  names,
  methods: { create: false, update: false, delete: false },
  read: (d) => ({
    id: d.id,
    organization: d.organization
      ? {
          id: d.organization.id,
          name: d.organization.name,
          relation_number: d.organization.relationNumber,
          relation_type: d.organization.relationType ? relationTypeV2(d.organization.relationType) : null,
        }
      : null,
    person: d.person
      ? {
          id: d.person.id,
          full_name: d.person.fullName,
          relation_number: d.person.relationNumber,
          relation_type: d.person.relationType ? relationTypeV2(d.person.relationType) : null,
        }
      : null,
  }),
});
