import { z } from 'zod';
import { customFieldValueSchema } from '../../customfields/custom-field-value.schema.js';
import { employee, employeeReference } from '../../hrm/employee/employee.entity.js';
import { defineEntity, f } from '../../shared/entity/index.js';
import { addressInput, addressShape, organizationAddress } from '../address.entity.js';
import { contactPerson } from '../contactperson/contactperson.entity.js';
import { contactLinkInput, contactOfOrganization } from '../contactperson/contactperson.shapes.js';
import {
  industry,
  interest,
  interestReference,
  namedReference,
  organizationSize,
  relationType,
  relationTypeReference,
} from '../reference/reference.entities.js';
import { timelineEmailAddressSql } from '../../shared/relation-shapes.js';

/** How the organization invoices: kept beside the send_* columns, with the defaults a read shows. */
export const debtorSchema = z.object({
  provisionMethod: z.string().nullable(),
  provisionContactpersonId: z.string().nullable(),
  sendEmailEmail: z.string().nullable(),
  cc: z.array(z.string()),
  attentionTo: z.string().nullable(),
  attentionToPersonId: z.string().nullable(),
  attentionToFixed: z.string().nullable(),
  autocollect: z.boolean(),
  reminders: z.boolean(),
  sendEmailType: z.string().nullable(),
  autosendSubscriptionInvoice: z.boolean(),
});

/** The settings' storage keys are snake_case JSON; the defaults are those of a new organization. */
const debtorKeys = {
  provisionMethod: (t: string) => `${t}.debtor_settings->>'provision_method'`,
  provisionContactpersonId: (t: string) => `${t}.debtor_settings->>'provision_contactperson_id'`,
  sendEmailEmail: (t: string) => `${t}.debtor_settings->>'send_email_email'`,
  cc: (t: string) => `COALESCE(${t}.debtor_settings->'cc', '[]'::jsonb)`,
  attentionTo: (t: string) => `${t}.debtor_settings->>'attention_to'`,
  attentionToPersonId: (t: string) => `${t}.debtor_settings->>'attention_to_person_id'`,
  attentionToFixed: (t: string) => `${t}.debtor_settings->>'attention_to_fixed'`,
  autocollect: (t: string) => `COALESCE((${t}.debtor_settings->>'autocollect')::boolean, ${t}.allow_autocollect)`,
  reminders: (t: string) => `COALESCE((${t}.debtor_settings->>'reminders')::boolean, true)`,
  sendEmailType: (t: string) => `${t}.debtor_settings->>'send_email_type'`,
  autosendSubscriptionInvoice: (t: string) =>
    `COALESCE((${t}.debtor_settings->>'autosend_subscription_invoice')::boolean, false)`,
};

/** what the keys above give an organization whose settings were never written */
const unsetDebtor = (autocollect: boolean): z.infer<typeof debtorSchema> => ({
  provisionMethod: null,
  provisionContactpersonId: null,
  sendEmailEmail: null,
  cc: [],
  attentionTo: null,
  attentionToPersonId: null,
  attentionToFixed: null,
  autocollect,
  reminders: true,
  sendEmailType: null,
  autosendSubscriptionInvoice: false,
});

/** An organization of the CRM: a customer, supplier or prospect company. */
export const organization = defineEntity({
  type: 'organization',
  table: 'organization',
  module: 'crm',
  nameField: 'name',
  fields: {
    id: f.id(),
    name: f.requiredString(),
    cocCode: f.string(),
    vatNumber: f.string(),
    email: f.string(),
    phone: f.string(),
    url: f.string(),
    note: f.string(),
    linkedinUrl: f.string(),
    hasDifferentPostalAddress: f.boolean(),
    relationType: f.ref(() => relationType, relationTypeReference, { column: 'relation_type_id' }),
    industry: f.ref(() => industry, namedReference, { column: 'industry_id' }),
    organizationSize: f.ref(() => organizationSize, namedReference, { column: 'organization_size_id' }),
    /** written whole: null removes it */
    visitingAddress: f.one(() => organizationAddress, addressShape, {
      remote: 'organization_id',
      where: (a) => `${a}.kind = 'visiting'`,
      input: addressInput,
    }),
    postalAddress: f.one(() => organizationAddress, addressShape, {
      remote: 'organization_id',
      where: (a) => `${a}.kind = 'postal'`,
      input: addressInput,
    }),
    /** an employee: HR data, so others see only its id and name without the hrm right */
    relationManager: f.ref(() => employee, employeeReference, { column: 'relation_manager_id', restricted: true }),
    interests: f.many(() => interest, interestReference, {
      remote: 'organization_id',
      through: { table: 'organization_interest', targetColumn: 'interest_id' },
      orderBy: (a) => `${a}.name, ${a}.id`,
      /** a write names the whole set */
      input: z.array(z.object({ id: z.string().min(1) })),
    }),
    /** active contact links only: inactive ones are not shown on organization reads (2024-07) */
    contacts: f.many(() => contactPerson, contactOfOrganization, {
      remote: 'organization_id',
      where: (a) => `${a}.is_active`,
      orderBy: (a) => `${a}.created_at, ${a}.id`,
      /** a write links persons as contacts, added or updated per person */
      input: z.array(contactLinkInput),
    }),
    invoiceReceiver: f.string(),
    allowAutocollect: f.boolean(),
    bankAccount: f.string(),
    bankBic: f.string(),
    relationNumber: f.string(),
    isActive: f.boolean(),
    sendInvoiceEmailToContact: f.boolean(),
    sendInvoiceEmailToProjectContact: f.boolean(),
    sendInvoiceEmailToFixedEmail: f.boolean(),
    sendInvoiceEmailToCc: f.boolean(),
    debtor: f.computedObject(debtorSchema, debtorKeys, {
      presets: [true, false].map((autocollect) => ({
        when: (t: string) => `${t}.debtor_settings IS NULL AND ${autocollect ? '' : 'NOT '}${t}.allow_autocollect`,
        value: unsetDebtor(autocollect),
      })),
    }),
    /** the address that files mail into this record's timeline (shared/relation-shapes.ts) */
    timelineEmailAddress: f.computed('string', z.string(), timelineEmailAddressSql, { filter: false, sort: false }),
    customFields: f.customFields('organization', customFieldValueSchema),
    createdAt: f.createdAt(),
    updatedAt: f.updatedAt(),
  },
});

export type Organization = z.infer<typeof organization.schema>;
