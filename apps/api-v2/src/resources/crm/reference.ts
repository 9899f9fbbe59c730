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
import { type AnyV2Resource, type EntityProcedures, v2Resource } from '../v2-resource.js';
import type { AnyEntity, ProjectionKeys } from '@bo/domain';
import { v2Shape } from '../v2-shape.js';

const names = v2Names();
/** reference data: read-only, v2 has no writes for it */
const methods = { create: false, update: false, delete: false };

/** The CRM's read-only reference data (reference: GetCountry, GetGender, …). */
/** a lookup of the CRM: read-only, its read declared as a shape */
function lookupV2<Row>(
  path: string,
  entity: AnyEntity,
  procedures: (c: Parameters<AnyV2Resource['procedures']>[0]) => EntityProcedures<Row>,
  keys: ProjectionKeys,
) {
  return v2Resource<Row>({ path, entity, procedures, names, methods, shape: v2Shape(entity, names, keys) });
}

export const countryV2 = lookupV2<Country>('crm/country', country, (c) => c.crm.country, {
  id: 'id',
  name: 'name',
  country_code: 'countryCode',
  language_code: 'languageCode',
});

/** a lookup v2 shows by its id and name */
const named = { id: 'id', name: 'name' } as const;

export const genderV2 = lookupV2<Gender>('crm/gender', gender, (c) => c.crm.gender, named);
export const industryV2 = lookupV2<Industry>('crm/industry', industry, (c) => c.crm.industry, named);
export const organizationSizeV2 = lookupV2<OrganizationSize>(
  'crm/organizationsize',
  organizationSize,
  (c) => c.crm.organizationsize,
  named,
);

/** reference: Interest (as organization reads show it) */
export function interestV2(i: Pick<Interest, 'id' | 'name' | 'apiName' | 'organization' | 'person'>) {
  return { id: i.id, name: i.name, api_name: i.apiName, organization: i.organization, person: i.person };
}

export const interestsV2 = lookupV2<Interest>('crm/interests', interest, (c) => c.crm.interests, {
  id: 'id',
  name: 'name',
  api_name: 'apiName',
  organization: 'organization',
  person: 'person',
});

export function relationTypeV2(r: Pick<RelationType, 'id' | 'label' | 'color' | 'type'>) {
  return { id: r.id, label: r.label, color: r.color, type: r.type };
}

export const relationTypeResourceV2 = lookupV2<RelationType>('crm/relationtype', relationType, (c) => c.crm.relationtype, {
  id: 'id',
  label: 'label',
  color: 'color',
  type: 'type',
});

/** crm/documenttype: the document types meant for organizations, persons and debtors. */
export const crmDocumentTypeV2 = areaDocumentTypeV2('crm/documenttype', (c) => c.crm.documenttype);

/** crm/document: the documents linked to an organization or a person. */
export const crmDocumentV2 = areaDocumentV2('crm/document', (c) => c.crm.document);
