import type { Person } from '@bo/domain/crm/person/person.entity';
import { customFieldValuesV2 } from '../customfields/values.js';
import { employeeReferenceV2 } from '../hrm/employee-reference.js';
import { v2Names } from '../v2-names.js';
import { v2Resource } from '../v2-resource.js';
import { interestV2, relationTypeV2 } from './reference.js';

/** v2 names that are not the snake_case of the domain's */
const names = v2Names({
  linked_as_contact_to_organization: 'contacts',
  line_1: 'line1',
  line_2: 'line2',
});

/** the genders v2 shows by name */
const GENDERS = new Set(['Male', 'Female', 'Unknown']);

/** crm/person (reference: GetPerson); every field present, null when empty. */
export const personV2 = v2Resource<Person>({
  path: 'crm/person',
  procedures: (c) => c.crm.person,
  names,
  read: (p) => {
    const subscribed = new Set(p.mailingLists.map((m) => m.id));
    return {
      id: p.id,
      gender_id: p.gender?.id ?? null,
      gender: p.gender && GENDERS.has(p.gender.name) ? p.gender.name : null,
      use_custom_salutation: p.useCustomSalutation,
      custom_salutation: p.customSalutation,
      interests: p.interests.map((i) => ({ ...interestV2(i), value: 'true' })),
      simplicate_url: null,
      address: p.address.map(({ id, ...a }) => ({ id, country: null, ...(names.output(a) as object) })),
      relation_manager: p.relationManager ? employeeReferenceV2(p.relationManager) : null,
      teams: [],
      is_employee: p.isEmployee ? 1 : 0,
      linked_as_contact_to_organization: p.contacts.map((c) => ({
        id: c.id,
        organization_id: c.organization?.id ?? null,
        name: c.organization?.name ?? null,
        is_active: c.isActive,
        work_function: c.workFunction,
        work_email: c.workEmail,
        work_phone: c.workPhone,
        work_mobile: c.workMobile,
        interests: (c.organization?.interests ?? []).map(interestV2),
      })),
      custom_fields: customFieldValuesV2(p.customFields),
      created_at: names.output(p.createdAt),
      updated_at: names.output(p.updatedAt),
      is_active: p.isActive,
      relation_type: p.relationType ? relationTypeV2(p.relationType) : null,
      initials: p.initials,
      first_name: p.firstName,
      family_name_prefix: p.familyNamePrefix,
      family_name: p.familyName,
      full_name: p.fullName,
      date_of_birth: p.dateOfBirth,
      note: p.note,
      email: p.email,
      phone: p.phone,
      website_url: p.websiteUrl,
      twitter_url: p.twitterUrl,
      linkedin_url: p.linkedinUrl,
      facebook_url: p.facebookUrl,
      relation_number: p.relationNumber,
      bank_account: p.bankAccount,
      bank_bic: p.bankBic,
      invoice_receiver: p.invoiceReceiver,
      mailing_list_email: p.mailingListEmail,
      mailing_lists: p.allMailingLists.map((m) => ({ id: m.id, name: m.name, value: subscribed.has(m.id) })),
    };
  },
});
