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

/**
 * The address that files mail into a record's timeline (organizations and sales): one per
 * record and environment, `<type>-<record hex>@<environment hex>.timeline.invalid`. The
 * environment's part keeps two environments' records apart; `.invalid` (RFC 2606) says that
 * this service receives no mail itself: a mail gateway in front of it owns the real domain and
 * maps the local part back to the record. SQL over the row aliased `t`.
 */
export const timelineEmailAddressSql = (t: string) =>
  `replace(${t}.id, ':', '-') || '@' || split_part(${t}.environment_id, ':', 2) || '.timeline.invalid'`;
