import type { ProjectSimple } from '@bo/domain/shared/relation-shapes';

/**
 * The v2 forms of the one embedded shape per target (reference: GetOrganizationSimple,
 * GetPersonSimple, GetEmployeeSimple, GetProjectSimple). Every resource that nests one of
 * these targets renders it here; none rebuilds it. A relation the caller may not read
 * arrives restricted (`{id, name}`): its other fields are null.
 */
type Loose = { id: string } & Record<string, unknown>;

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** GetOrganizationSimple */
export function organizationSimpleV2(o: Loose | null | undefined) {
  if (!o) return null;
  return { id: o.id, name: str(o.name), relation_number: str(o.relationNumber) };
}

/** GetPersonSimple (a restricted person carries its full name as `name`) */
export function personSimpleV2(p: Loose | null | undefined) {
  if (!p) return null;
  return { id: p.id, full_name: str(p.fullName) ?? str(p.name), relation_number: str(p.relationNumber) };
}

/** GetEmployeeSimple */
export function employeeSimpleV2(e: { id: string; personId?: string | null; name: string | null }) {
  return 'personId' in e ? { id: e.id, person_id: e.personId, name: e.name } : { id: e.id, name: e.name };
}

/** GetContactSimple (restricted: the id only, with nothing nested) */
export function contactSimpleV2(c: Loose | null | undefined) {
  if (!c) return null;
  return {
    id: c.id,
    person: personSimpleV2(c.person as Loose | null | undefined),
    organization: organizationSimpleV2(c.organization as Loose | null | undefined),
  };
}

/** GetProjectSimple: the project with its customer, contact person and manager. */
export function projectSimpleV2(p: (Partial<ProjectSimple> & { id: string; name: string | null }) | null | undefined) {
  if (!p) return null;
  return {
    id: p.id,
    name: p.name,
    project_number: p.projectNumber ?? null,
    organization: organizationSimpleV2(p.organization as Loose | null | undefined),
    person: personSimpleV2(p.person as Loose | null | undefined),
    project_manager: p.projectManager ? employeeSimpleV2(p.projectManager) : null,
    separate_invoice_recipient: null,
    has_register_mileage_enabled: p.canRegisterMileage ?? null,
  };
}
