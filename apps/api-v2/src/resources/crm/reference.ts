import { areaDocumentV2 } from '../documents/documents.js';
import { areaDocumentTypeV2 } from '../documents/documenttype.js';
import {
  type Country,
  country,
  type Gender,
  gender,
  type Industry,
  industry,
  type Interest,
  interest,
  type OrganizationSize,
  organizationSize,
  type RelationType,
  relationType,
} from '@bo/domain/crm/reference/reference.entities';
import { v2Names } from '../v2-names.js';
import { v2Resource } from '../v2-resource.js';
import { v2Shape } from '../v2-shape.js';

const names = v2Names();
/** reference data: read-only, v2 has no writes for it */
const methods = { create: false, update: false, delete: false };

/** The CRM's read-only reference data (reference: GetCountry, GetGender, …). */
export const countryV2 = v2Resource<Country>({
  path: 'crm/country',
  entity: country,
  procedures: (c) => c.crm.country,
  names,
  methods,
  shape: v2Shape(country, names, { id: 'id', name: 'name', country_code: 'countryCode', language_code: 'languageCode' }),
});

/** a lookup v2 shows by its id and name */
const named = { id: 'id', name: 'name' } as const;

export const genderV2 = v2Resource<Gender>({
  path: 'crm/gender',
  entity: gender,
  procedures: (c) => c.crm.gender,
  names,
  methods,
  shape: v2Shape(gender, names, named),
});

export const industryV2 = v2Resource<Industry>({
  path: 'crm/industry',
  entity: industry,
  procedures: (c) => c.crm.industry,
  names,
  methods,
  shape: v2Shape(industry, names, named),
});

export const organizationSizeV2 = v2Resource<OrganizationSize>({
  path: 'crm/organizationsize',
  entity: organizationSize,
  procedures: (c) => c.crm.organizationsize,
  names,
  methods,
  shape: v2Shape(organizationSize, names, named),
});

/** reference: Interest (as organization reads show it) */
export function interestV2(i: Pick<Interest, 'id' | 'name' | 'apiName' | 'organization' | 'person'>) {
  return { id: i.id, name: i.name, api_name: i.apiName, organization: i.organization, person: i.person };
}

export const interestsV2 = v2Resource<Interest>({
  path: 'crm/interests',
  entity: interest,
  procedures: (c) => c.crm.interests,
  names,
  methods,
  shape: v2Shape(interest, names, {
    id: 'id',
    name: 'name',
    api_name: 'apiName',
    organization: 'organization',
    person: 'person',
  }),
});

export function relationTypeV2(r: Pick<RelationType, 'id' | 'label' | 'color' | 'type'>) {
  return { id: r.id, label: r.label, color: r.color, type: r.type };
}

export const relationTypeResourceV2 = v2Resource<RelationType>({
  path: 'crm/relationtype',
  entity: relationType,
  procedures: (c) => c.crm.relationtype,
  names,
  methods,
  shape: v2Shape(relationType, names, { id: 'id', label: 'label', color: 'color', type: 'type' }),
});

/** crm/documenttype: the document types meant for organizations, persons and debtors. */
export const crmDocumentTypeV2 = areaDocumentTypeV2('crm/documenttype', (c) => c.crm.documenttype);

/** crm/document: the documents linked to an organization or a person. */
export const crmDocumentV2 = areaDocumentV2('crm/document', (c) => c.crm.document);
