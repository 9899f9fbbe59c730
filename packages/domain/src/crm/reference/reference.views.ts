import type { Models } from '@bo/db';

export function relationTypeView(r: Models.RelationTypeModel) {
  return { id: r.id, label: r.label, color: r.color, type: r.type };
}

export function namedView(r: { id: string; name: string }) {
  return { id: r.id, name: r.name };
}

export function countryView(c: Models.CountryModel) {
  return { id: c.id, name: c.name, country_code: c.countryCode, language_code: c.languageCode };
}

/** reference: Interest (organization reads); GetInterest adds `value` on person reads */
export function interestView(i: Pick<Models.InterestModel, 'id' | 'name' | 'apiName' | 'organization' | 'person'>) {
  return { id: i.id, name: i.name, api_name: i.apiName, organization: i.organization, person: i.person };
}

export function documentTypeView(d: Models.DocumentTypeModel) {
  return {
    id: d.id,
    label: d.label,
    can_have_attachment: d.canHaveAttachment,
    is_for_crm: d.isForCrm,
    is_for_contact: d.isForContact,
    is_for_sale: d.isForSale,
    is_for_debtor: d.isForDebtor,
    is_for_project: d.isForProject,
    is_for_subscription: d.isForSubscription,
    is_for_employee: d.isForEmployee,
    is_for_invoice: d.isForInvoice,
    is_for_myorganizationprofile: d.isForMyorganizationprofile,
    is_blocked: d.isBlocked,
    is_visible_on_all: d.isVisibleOnAll,
  };
}

/** reference: Employee; the view belongs to the HRM module, which owns employees. */
export { employeeV2 as employeeView } from '../../hrm/employee/employee.view.js';

/** Loads the employees a page refers to, in one query. */
export async function loadEmployees(
  db: { employee: { findMany(args: { where: { id: { in: string[] } } }): Promise<Models.EmployeeModel[]> } },
  ids: (string | null)[],
): Promise<Map<string, Models.EmployeeModel>> {
  const wanted = [...new Set(ids.filter((id): id is string => id !== null))];
  if (wanted.length === 0) return new Map();
  const rows = await db.employee.findMany({ where: { id: { in: wanted } } });
  return new Map(rows.map((e) => [e.id, e]));
}
