import { z } from 'zod';

/**
 * How a relation embeds its target: ONE shape per target, used by every entity that points
 * at it (the reference's `…Simple` shapes). A relation declared with one of these shows the
 * same fields wherever it is nested; the project's own relations take these shapes too, so a
 * project nested in an hour, an invoice or a purchase carries its customer's name.
 */

/** GetOrganizationSimple */
export const organizationSimple = z.object({ id: z.string(), name: z.string(), relationNumber: z.string().nullable() });

/** GetPersonSimple */
export const personSimple = z.object({
  id: z.string(),
  fullName: z.string().nullable(),
  relationNumber: z.string().nullable(),
});

/** GetEmployeeSimple */
export const employeeSimple = z.object({ id: z.string(), personId: z.string().nullable(), name: z.string() });

/** GetContactSimple: a contact link, its person and organization. */
export const contactSimple = z.object({
  id: z.string(),
  person: personSimple.nullable(),
  organization: organizationSimple.nullable(),
});

/** The restricted form (id and name) a relation shows when the caller may not read its module. */
const orRestricted = <S extends z.ZodType>(s: S) => z.union([s, z.object({ id: z.string(), name: z.string().nullable() })]);

/** GetProjectSimple: the project with its customer, contact person and manager. */
export const projectSimple = z.object({
  id: z.string(),
  name: z.string(),
  projectNumber: z.string().nullable(),
  organization: orRestricted(organizationSimple).nullable(),
  person: orRestricted(personSimple).nullable(),
  projectManager: orRestricted(employeeSimple).nullable(),
  canRegisterMileage: z.boolean(),
});
export type ProjectSimple = z.infer<typeof projectSimple>;
