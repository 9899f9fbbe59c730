import { z } from 'zod';

const text = z.string().max(10_000).nullable().optional();

/** reference: PostContactPerson */
export const createContactPersonSchema = z.object({
  organization_id: z.string().min(1),
  person_id: z.string().min(1),
  is_active: z.boolean().optional(),
  work_function: text,
  work_email: text,
  work_phone: text,
  work_mobile: text,
});
export type CreateContactPersonInput = z.infer<typeof createContactPersonSchema>;

/** reference: PutContactPerson (the organization of a link does not change) */
export const updateContactPersonSchema = z.object({
  is_active: z.boolean().optional(),
  work_function: text,
  work_email: text,
  work_phone: text,
  work_mobile: text,
  person_id: z.string().min(1).optional(),
});
export type UpdateContactPersonInput = z.infer<typeof updateContactPersonSchema>;
