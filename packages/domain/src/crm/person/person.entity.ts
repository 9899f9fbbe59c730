import { parseDateTime } from '@bo/db';
import { z } from 'zod';
import { customFieldValueSchema } from '../../customfields/custom-field-value.schema.js';
import { employee, employeeReference } from '../../hrm/employee/employee.entity.js';
import { defineEntity, f, type TargetEntity } from '../../shared/entity/index.js';
import { addressInput, addressShape, personAddress } from '../address.entity.js';
import { contactPerson } from '../contactperson/contactperson.entity.js';
import { contactLinkInput, contactOfPerson } from '../contactperson/contactperson.shapes.js';
import {
  gender,
  interest,
  interestReference,
  mailingList,
  namedReference,
  relationType,
  relationTypeReference,
} from '../reference/reference.entities.js';

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Every mailing list of the environment, in name order: a person's read shows each with whether the person is on it. */
const allMailingListsSql = () => `COALESCE((SELECT json_agg(json_build_object('id', m.id, 'name', m.name) ORDER BY m.name, m.id)
    FROM mailing_list m WHERE m.environment_id = $1), '[]'::json)`;

/** A person of the CRM: a contact, a customer, an employee's own record. */
export const person = defineEntity({
  type: 'person',
  table: 'person',
  module: 'crm',
  nameField: 'fullName',
  fields: {
    id: f.id(),
    /** written by its id or by its name (Male, Female, Unknown) */
    gender: f.ref(() => gender, namedReference, { column: 'gender_id', writable: false }),
    useCustomSalutation: f.boolean(),
    customSalutation: f.string(),
    initials: f.string(),
    firstName: f.string(),
    familyNamePrefix: f.string(),
    /** mandatory on create (2023-08), not on update (2023-09): left out, it keeps its value */
    familyName: f.string({ required: true }),
    /** first name, prefix and family name, kept by every write */
    fullName: f.string({ writable: false }),
    dateOfBirth: f.date({
      input: z
        .string()
        .regex(DATE, 'a date is YYYY-MM-DD')
        // parseDateTime refuses dates such as 1990-02-30 that Date would roll over into March
        .refine((d) => !DATE.test(d) || parseDateTime(d) !== null, 'not a calendar date')
        .nullable(),
    }),
    note: f.string(),
    email: f.string(),
    phone: f.string(),
    websiteUrl: f.string(),
    twitterUrl: f.string(),
    linkedinUrl: f.string(),
    facebookUrl: f.string(),
    relationNumber: f.string(),
    bankAccount: f.string(),
    bankBic: f.string(),
    invoiceReceiver: f.string(),
    mailingListEmail: f.string(),
    isActive: f.boolean(),
    relationType: f.ref(() => relationType, relationTypeReference, { column: 'relation_type_id' }),
    /** an employee: HR data, so others see only its id and name without the hrm right */
    relationManager: f.ref(() => employee, employeeReference, { column: 'relation_manager_id', restricted: true }),
    /** written as one address: null removes it */
    address: f.many(() => personAddress, addressShape, { remote: 'person_id', input: addressInput }),
    interests: f.many(() => interest, interestReference, {
      remote: 'person_id',
      through: { table: 'person_interest', targetColumn: 'interest_id' },
      orderBy: (a) => `${a}.name, ${a}.id`,
      /** a write names the whole set */
      input: z.array(z.object({ id: z.string().min(1) })),
    }),
    /** the lists the person is on */
    mailingLists: f.many(() => mailingList, namedReference, {
      remote: 'person_id',
      through: { table: 'person_mailing_list', targetColumn: 'mailing_list_id' },
      orderBy: (a) => `${a}.name, ${a}.id`,
      /** value true adds the person to the list, false takes it off; lists not named stay as they are */
      input: z.array(z.object({ id: z.string().min(1), value: z.boolean() })),
    }),
    /** every list of the environment, whether the person is on it or not */
    allMailingLists: f.computed('json', z.array(namedReference), allMailingListsSql),
    /** active contact links only: inactive ones are not shown on person reads (2024-07) */
    contacts: f.many((): TargetEntity => contactPerson, contactOfPerson, {
      remote: 'person_id',
      where: (a) => `${a}.is_active`,
      orderBy: (a) => `${a}.created_at, ${a}.id`,
      /** links to organizations, added or updated per organization */
      input: z.array(contactLinkInput.omit({ personId: true }).extend({ organizationId: z.string().min(1) })),
    }),
    isEmployee: f.computed(
      'boolean',
      z.boolean(),
      (t) => `EXISTS (SELECT 1 FROM employee e WHERE e.person_id = ${t}.id AND e.environment_id = $1)`,
    ),
    customFields: f.customFields('person', customFieldValueSchema),
    createdAt: f.createdAt(),
    updatedAt: f.updatedAt(),
  },
});

export type Person = z.infer<typeof person.schema>;
