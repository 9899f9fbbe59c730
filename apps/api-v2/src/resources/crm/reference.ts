import { areaDocumentV2 } from '../documents/documents.js';
import { areaDocumentTypeV2 } from '../documents/documenttype.js';
import type {
  Country,
  Gender,
  Industry,
  Interest,
  OrganizationSize,
  RelationType,
} from '@bo/domain/crm/reference/reference.entities';
import { v2Names } from '../v2-names.js';
import { v2Resource } from '../v2-resource.js';

const names = v2Names();
/** reference data: read-only, v2 has no writes for it */
const methods = { create: false, update: false, delete: false };

/** The CRM's read-only reference data (reference: GetCountry, GetGender, …). */
export const countryV2 = v2Resource<Country>({
  path: 'crm/country',
  procedures: (c) => c.crm.country,
  names,
  methods,
  read: (r) => ({ id: r.id, name: r.name, country_code: r.countryCode, language_code: r.languageCode }),
});

const named = (r: { id: string; name: string }) => ({ id: r.id, name: r.name });

export const genderV2 = v2Resource<Gender>({ path: 'crm/gender', procedures: (c) => c.crm.gender, names, methods, read: named });

export const industryV2 = v2Resource<Industry>({
  path: 'crm/industry',
  procedures: (c) => c.crm.industry,
  names,
  methods,
  read: named,
});

export const organizationSizeV2 = v2Resource<OrganizationSize>({
  path: 'crm/organizationsize',
  procedures: (c) => c.crm.organizationsize,
  names,
  methods,
  read: named,
});

/** reference: Interest (as organization reads show it) */
export function interestV2(i: Pick<Interest, 'id' | 'name' | 'apiName' | 'organization' | 'person'>) {
  return { id: i.id, name: i.name, api_name: i.apiName, organization: i.organization, person: i.person };
}

export const interestsV2 = v2Resource<Interest>({
  path: 'crm/interests',
  procedures: (c) => c.crm.interests,
  names,
  methods,
  read: interestV2,
});

export function relationTypeV2(r: Pick<RelationType, 'id' | 'label' | 'color' | 'type'>) {
  return { id: r.id, label: r.label, color: r.color, type: r.type };
}

export const relationTypeResourceV2 = v2Resource<RelationType>({
  path: 'crm/relationtype',
  procedures: (c) => c.crm.relationtype,
  names,
  methods,
  read: relationTypeV2,
});

/** crm/documenttype: the document types meant for organizations, persons and debtors. */
export const crmDocumentTypeV2 = areaDocumentTypeV2('crm/documenttype', (c) => c.crm.documenttype);

/** crm/document: the documents linked to an organization or a person. */
export const crmDocumentV2 = areaDocumentV2('crm/document', (c) => c.crm.document);
