import type { AnyV2Resource } from '../v2-resource.js';
import { contactPersonV2 } from './contactperson.js';
import { debtorV2 } from './debtor.js';
import { myOrganizationProfileV2, myOrganizationV2 } from './myorganization.js';
import { personV2 } from './person.js';
import {
  countryV2,
  crmDocumentTypeV2,
  crmDocumentV2,
  genderV2,
  industryV2,
  interestsV2,
  organizationSizeV2,
  relationTypeResourceV2,
} from './reference.js';

/** The CRM's v2 resources declared the new way (organization is registered on its own). */
export const crmV2Resources: AnyV2Resource[] = [
  personV2,
  contactPersonV2,
  myOrganizationProfileV2,
  myOrganizationV2,
  debtorV2,
  countryV2,
  genderV2,
  industryV2,
  interestsV2,
  organizationSizeV2,
  relationTypeResourceV2,
  crmDocumentTypeV2,
  crmDocumentV2,
];
