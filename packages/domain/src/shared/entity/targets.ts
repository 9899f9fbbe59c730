import type { ModuleName } from '../rights.js';
import type { TargetEntity } from './fields.js';

/**
 * The rows an id column may name, as a reference check needs them (type and table): stand-ins for
 * entities declared in other areas, so that a declaration can say what its `<x>Id` scalar
 * references (`references: () => targets.vatClass`) without importing that area (and its cycles).
 */
const target = (type: string, table: string, module: ModuleName): TargetEntity => ({ type, table, module, fields: {} });

export const targets = {
  country: target('country', 'country', 'crm'),
  organization: target('organization', 'organization', 'crm'),
  person: target('person', 'person', 'crm'),
  contactPerson: target('contactperson', 'contact_person', 'crm'),
  myOrganizationProfile: target('myorganizationprofile', 'my_organization_profile', 'crm'),
  user: target('user', 'user_account', 'crm'),
  employee: target('employee', 'employee', 'hrm'),
  project: target('project', 'project', 'projects'),
  projectService: target('projectservice', 'project_service', 'projects'),
  hourType: target('hourtype', 'hour_type', 'hours'),
  sale: target('sale', 'sale', 'sales'),
  saleService: target('saleservice', 'sale_service', 'sales'),
  vatClass: target('vatclass', 'vat_class', 'invoices'),
  revenueGroup: target('revenuegroup', 'revenue_group', 'invoices'),
  defaultService: target('defaultservice', 'default_service', 'projects'),
  invoice: target('invoice', 'invoice', 'invoices'),
  reminderSet: target('reminderset', 'reminder_set', 'invoices'),
  reminderTemplate: target('remindertemplate', 'reminder_template', 'invoices'),
} as const;
