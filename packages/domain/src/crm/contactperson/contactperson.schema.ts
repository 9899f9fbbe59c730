import { z } from 'zod';

const text = z.string().max(10_000).nullable().optional();

/** A new contact link: the organization and the person, with the person's work details there. */
export const createContactPersonInput = z.object({
  organizationId: z.string().min(1),
  personId: z.string().min(1),
  isActive: z.boolean().optional(),
  workFunction: text,
  workEmail: text,
  workPhone: text,
  workMobile: text,
});
export type CreateContactPersonInput = z.infer<typeof createContactPersonInput>;

/** A change of a contact link (the organization of a link does not change). */
export const updateContactPersonInput = z.object({
  isActive: z.boolean().optional(),
  workFunction: text,
  workEmail: text,
  workPhone: text,
  workMobile: text,
  personId: z.string().min(1).optional(),
});
export type UpdateContactPersonInput = z.infer<typeof updateContactPersonInput>;
