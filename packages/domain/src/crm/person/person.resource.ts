import type { Models } from '@bo/db';
import { type CustomFieldValueView, loadCustomFields } from '../../customfields/index.js';
import { v2Date, v2DateTime, v3DateTime } from '../../shared/format.js';
import type { Db, ResourceDefinition } from '../../shared/resources/definition.js';
import { employeeView, interestView, loadEmployees, relationTypeView } from '../reference/reference.views.js';
import { createPerson } from './create-person.js';
import { deletePerson } from './delete-person.js';
import { type CreatePersonInput, createPersonSchema, type UpdatePersonInput, updatePersonSchema } from './person.schema.js';
import { personSql } from './person.sql.js';
import { updatePerson } from './update-person.js';

const include = {
  gender: true,
  relationType: true,
  addresses: true,
  interests: { include: { interest: true } },
  mailingLists: true,
  // inactive contact links are not shown on person reads (2024-07)
  contacts: {
    where: { isActive: true },
    include: { organization: { include: { interests: { include: { interest: true } } } } },
    orderBy: { createdAt: 'asc' as const },
  },
};

type PersonBase = Models.PersonModel & {
  gender: Models.GenderModel | null;
  relationType: Models.RelationTypeModel | null;
  addresses: Models.PersonAddressModel[];
  interests: (Models.PersonInterestModel & { interest: Models.InterestModel })[];
  mailingLists: Models.PersonMailingListModel[];
  contacts: (Models.ContactPersonModel & {
    organization: Models.OrganizationModel & {
      interests: (Models.OrganizationInterestModel & { interest: Models.InterestModel })[];
    };
  })[];
};

export type PersonRow = PersonBase & {
  customFields: CustomFieldValueView[];
  allMailingLists: Models.MailingListModel[];
  relationManager: Models.EmployeeModel | null;
  isEmployee: boolean;
};

/** A page of persons with everything the read shape shows, in a fixed number of queries. */
async function load(db: Db, ids: string[], environmentId: string): Promise<PersonRow[]> {
  const rows: PersonBase[] = await db.person.findMany({ where: { id: { in: ids } }, include });
  if (rows.length === 0) return [];
  const found = rows.map((r) => r.id);
  const [customFields, allMailingLists, managers, employees] = await Promise.all([
    loadCustomFields(db, environmentId, 'person', found),
    db.mailingList.findMany({ orderBy: [{ name: 'asc' }, { id: 'asc' }] }),
    loadEmployees(
      db,
      rows.map((r) => r.relationManagerId),
    ),
    db.employee.findMany({ where: { personId: { in: found } }, select: { personId: true } }),
  ]);
  const employeePersons = new Set(employees.map((e) => e.personId));
  return rows.map((r) => ({
    ...r,
    customFields: customFields.get(r.id) ?? [],
    allMailingLists,
    relationManager: r.relationManagerId ? (managers.get(r.relationManagerId) ?? null) : null,
    isEmployee: employeePersons.has(r.id),
  }));
}

function addressView(a: Models.PersonAddressModel) {
  return {
    id: a.id,
    country: null,
    type: a.type,
    line_1: a.line1,
    line_2: a.line2,
    postal_code: a.postalCode,
    province: a.province,
    locality: a.locality,
    country_code: a.countryCode,
    country_id: a.countryId,
  };
}

const GENDERS = new Set(['Male', 'Female', 'Unknown']);

/** v2 read shape (reference: GetPerson); every field present, null when empty. */
export function personV2(p: PersonRow): Record<string, unknown> {
  const subscribed = new Set(p.mailingLists.map((m) => m.mailingListId));
  return {
    id: p.id,
    gender_id: p.genderId,
    gender: p.gender && GENDERS.has(p.gender.name) ? p.gender.name : null,
    use_custom_salutation: p.useCustomSalutation,
    custom_salutation: p.customSalutation,
    interests: p.interests.map((i) => ({ ...interestView(i.interest), value: 'true' })),
    simplicate_url: null,
    address: p.addresses.map(addressView),
    relation_manager: p.relationManager ? employeeView(p.relationManager) : null,
    teams: [],
    is_employee: p.isEmployee ? 1 : 0,
    linked_as_contact_to_organization: p.contacts.map((c) => ({
      id: c.id,
      organization_id: c.organizationId,
      name: c.organization.name,
      is_active: c.isActive,
      work_function: c.workFunction,
      work_email: c.workEmail,
      work_phone: c.workPhone,
      work_mobile: c.workMobile,
      interests: c.organization.interests.map((i) => interestView(i.interest)),
    })),
    custom_fields: p.customFields,
    created_at: v2DateTime(p.createdAt),
    updated_at: v2DateTime(p.updatedAt),
    is_active: p.isActive,
    relation_type: p.relationType ? relationTypeView(p.relationType) : null,
    initials: p.initials,
    first_name: p.firstName,
    family_name_prefix: p.familyNamePrefix,
    family_name: p.familyName,
    full_name: p.fullName,
    date_of_birth: v2Date(p.dateOfBirth),
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
}

/** v3 shape (our design, camelCase); used by events until v3 has person endpoints. */
export function personV3(p: PersonRow): Record<string, unknown> {
  return {
    id: p.id,
    firstName: p.firstName,
    familyNamePrefix: p.familyNamePrefix,
    familyName: p.familyName,
    fullName: p.fullName,
    email: p.email,
    phone: p.phone,
    relationNumber: p.relationNumber,
    isActive: p.isActive,
    createdAt: v3DateTime(p.createdAt),
    updatedAt: v3DateTime(p.updatedAt),
  };
}

export const personResource: ResourceDefinition<PersonRow, CreatePersonInput, UpdatePersonInput> = {
  name: 'crm/person',
  entityType: 'person',
  module: 'crm',
  sql: personSql,
  defaultSort: [{ path: 'created_at', dir: 'asc' }],
  load,
  views: { v2: personV2, v3: personV3 },
  create: { schema: createPersonSchema, run: createPerson },
  update: { schema: updatePersonSchema, run: updatePerson },
  remove: deletePerson,
};
