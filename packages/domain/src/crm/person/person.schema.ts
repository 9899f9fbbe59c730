import { z } from 'zod';
import { customFieldValuesSchema } from '../../customfields/index.js';
import { addressInputSchema } from '../address.js';

/** Write shapes of crm/person (reference: PostPerson), snake_case as v2 sends them. */
const text = z.string().max(10_000).nullable().optional();
const reference = z
  .object({ id: z.string().min(1) })
  .nullable()
  .optional();

const personFields = {
  gender_id: z.string().min(1).nullable().optional(),
  gender: z.enum(['Male', 'Female', 'Unknown']).nullable().optional(),
  use_custom_salutation: z.boolean().optional(),
  custom_salutation: text,
  initials: text,
  first_name: text,
  family_name_prefix: text,
  date_of_birth: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'a date is YYYY-MM-DD')
    .nullable()
    .optional(),
  note: text,
  email: text,
  phone: text,
  website_url: text,
  twitter_url: text,
  linkedin_url: text,
  facebook_url: text,
  relation_number: text,
  bank_account: text,
  bank_bic: text,
  invoice_receiver: text,
  mailing_list_email: text,
  is_active: z.boolean().optional(),
  relation_type: reference,
  relation_manager: reference,
  address: addressInputSchema,
  /** the whole set of the person's interests */
  interests: z.array(z.object({ id: z.string().min(1) })).optional(),
  /** value true adds the person to the list, false takes it off; lists not named stay as they are */
  mailing_lists: z.array(z.object({ id: z.string().min(1), value: z.boolean() })).optional(),
  /** links to organizations, added or updated per organization_id */
  linked_as_contact_to_organization: z
    .array(
      z.object({
        organization_id: z.string().min(1),
        work_function: text,
        work_email: text,
        work_phone: text,
        work_mobile: text,
      }),
    )
    .optional(),
  custom_fields: customFieldValuesSchema,
};

/** family_name is mandatory on POST (2023-08) … */
export const createPersonSchema = z.object({
  family_name: z.string().trim().min(1, 'family_name must not be empty').max(255),
  ...personFields,
});
export type CreatePersonInput = z.infer<typeof createPersonSchema>;

/** … and not on PUT (2023-09): left out, it keeps its value. */
export const updatePersonSchema = z.object({
  family_name: z.string().trim().min(1, 'family_name must not be empty').max(255).optional(),
  ...personFields,
});
export type UpdatePersonInput = z.infer<typeof updatePersonSchema>;
