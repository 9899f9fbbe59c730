import type { Models } from '@bo/db';
import { type CustomFieldValueView, loadCustomFields } from '../customfields/index.js';
import type { Db } from '../shared/resources/definition.js';
import { type LinkedProjectRow, loadLinkedProjects } from './linked-projects.load.js';

type OrganizationRef = Pick<Models.OrganizationModel, 'id' | 'name' | 'relationNumber'>;
type PersonRef = Pick<Models.PersonModel, 'id' | 'fullName' | 'relationNumber'>;

export type SaleRow = Models.SaleModel & {
  organization: OrganizationRef | null;
  person: PersonRef | null;
  responsibleEmployee: Models.EmployeeModel | null;
  linkedProjects: LinkedProjectRow[];
  customFields: CustomFieldValueView[];
};

const byId = <T extends { id: string }>(rows: T[]) => new Map(rows.map((r) => [r.id, r]));
const present = (ids: (string | null)[]) => [...new Set(ids.filter((i): i is string => i !== null))];

/** A page of sales with their relation, employee, linked projects and custom fields, in a fixed number of queries. */
export async function loadSales(db: Db, ids: string[], environmentId: string): Promise<SaleRow[]> {
  const rows = await db.sale.findMany({ where: { id: { in: ids } } });
  if (rows.length === 0) return [];
  const found = rows.map((r) => r.id);
  const [organizations, persons, employees, linked, customFields] = await Promise.all([
    db.organization.findMany({
      where: { id: { in: present(rows.map((r) => r.organizationId)) } },
      select: { id: true, name: true, relationNumber: true },
    }),
    db.person.findMany({
      where: { id: { in: present(rows.map((r) => r.personId)) } },
      select: { id: true, fullName: true, relationNumber: true },
    }),
    db.employee.findMany({ where: { id: { in: present(rows.map((r) => r.responsibleEmployeeId)) } } }),
    loadLinkedProjects(db, environmentId, found),
    loadCustomFields(db, environmentId, 'sale', found),
  ]);
  const orgs = byId(organizations);
  const people = byId(persons);
  const staff = byId(employees);
  return rows.map((r) => ({
    ...r,
    organization: r.organizationId ? (orgs.get(r.organizationId) ?? null) : null,
    person: r.personId ? (people.get(r.personId) ?? null) : null,
    responsibleEmployee: r.responsibleEmployeeId ? (staff.get(r.responsibleEmployeeId) ?? null) : null,
    linkedProjects: linked.get(r.id) ?? [],
    customFields: customFields.get(r.id) ?? [],
  }));
}
