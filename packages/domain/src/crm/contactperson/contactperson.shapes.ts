import { z } from 'zod';
import { interestReference } from '../reference/reference.entities.js';

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

/** A contact link a write names, from the organization's side: the person and the link's own values. */
export const contactLinkInput = z.object({
  personId: z.string().min(1),
  workFunction: z.string().max(10_000).nullable().optional(),
  workEmail: z.string().max(10_000).nullable().optional(),
  workPhone: z.string().max(10_000).nullable().optional(),
  workMobile: z.string().max(10_000).nullable().optional(),
});

/** The organization of a contact link, with its interests (a person's contacts show them). */
export const organizationOfContact = z.object({
  id: z.string(),
  name: z.string(),
  relationNumber: z.string().nullable(),
  interests: z.array(interestReference),
});

/** The person of a contact link. */
export const personOfContact = z.object({
  id: z.string(),
  fullName: z.string().nullable(),
  relationNumber: z.string().nullable(),
});

/** A contact link as the person embeds it: the organization with its interests. */
export const contactOfPerson = z.object({
  id: z.string(),
  organization: organizationOfContact.nullable(),
  isActive: z.boolean(),
  workFunction: z.string().nullable(),
  workEmail: z.string().nullable(),
  workPhone: z.string().nullable(),
  workMobile: z.string().nullable(),
});
