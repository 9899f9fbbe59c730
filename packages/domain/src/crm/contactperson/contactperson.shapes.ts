import { z } from 'zod';

// Shapes live apart from the entity: entity modules refer to each other (only inside thunks),
// and an eagerly used value imported through such a cycle could be read before it exists.

/** A contact link as the organization embeds it. */
export const contactOfOrganization = z.object({
  id: z.string(),
  personId: z.string(),
  isActive: z.boolean(),
  workFunction: z.string().nullable(),
  workEmail: z.string().nullable(),
  workPhone: z.string().nullable(),
  workMobile: z.string().nullable(),
});
