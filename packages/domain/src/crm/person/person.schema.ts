import { parseDateTime } from '@bo/db';
import { z } from 'zod';
import { customFieldValuesSchema } from '../../customfields/index.js';
import { addressInput } from '../address.entity.js';

/** Write shapes of a person, in domain terms. */
const text = z.string().max(10_000).nullable().optional();
const reference = z
  .object({ id: z.string().min(1) })
  .nullable()
  .optional();

const DATE = /^\d{4}-\d{2}-\d{2}$/;

const personFields = {
  genderId: z.string().min(1).nullable().optional(),
  /** the gender by its name, when no genderId is given */
  gender: z.enum(['Male', 'Female', 'Unknown']).nullable().optional(),
  useCustomSalutation: z.boolean().optional(),
  customSalutation: text,
  initials: text,
  firstName: text,
  familyNamePrefix: text,
  dateOfBirth: z
    .string()
    .regex(DATE, 'a date is YYYY-MM-DD')
    // parseDateTime refuses dates such as 1990-02-30 that Date would roll over into March
    .refine((d) => !DATE.test(d) || parseDateTime(d) !== null, 'not a calendar date')
    .nullable()
    .optional(),
  note: text,
  email: text,
  phone: text,
  websiteUrl: text,
  twitterUrl: text,
  linkedinUrl: text,
  facebookUrl: text,
  relationNumber: text,
  bankAccount: text,
  bankBic: text,
  invoiceReceiver: text,
  mailingListEmail: text,
  isActive: z.boolean().optional(),
  relationType: reference,
  relationManager: reference,
  address: addressInput,
  /** the whole set of the person's interests */
  interests: z.array(z.object({ id: z.string().min(1) })).optional(),
  /** value true adds the person to the list, false takes it off; lists not named stay as they are */
  mailingLists: z.array(z.object({ id: z.string().min(1), value: z.boolean() })).optional(),
  /** links to organizations, added or updated per organization */
  contacts: z
    .array(
      z.object({
        organizationId: z.string().min(1),
        workFunction: text,
        workEmail: text,
        workPhone: text,
        workMobile: text,
      }),
    )
    .optional(),
  customFields: customFieldValuesSchema,
};

/** the family name is mandatory on create (2023-08) … */
export const createPersonInput = z.object({
  familyName: z.string().trim().min(1, 'family_name must not be empty').max(255),
  ...personFields,
});
export type CreatePersonInput = z.infer<typeof createPersonInput>;

/** … and not on update (2023-09): left out, it keeps its value. */
export const updatePersonInput = z.object({
  familyName: z.string().trim().min(1, 'family_name must not be empty').max(255).optional(),
  ...personFields,
});
export type UpdatePersonInput = z.infer<typeof updatePersonInput>;
