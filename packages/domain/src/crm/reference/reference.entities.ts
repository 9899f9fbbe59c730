import { z } from 'zod';
import { defineEntity, f } from '../../shared/entity/index.js';

/** The CRM's reference data: kinds of relation, industries, sizes and interests of an environment. */
export const relationType = defineEntity({
  type: 'relationtype',
  table: 'relation_type',
  module: 'crm',
  defaultSort: [{ path: 'label', dir: 'asc' }],
  nameField: 'label',
  fields: {
    id: f.id(),
    /** the system label (Relationtype_own_company); `name` is the readable text (docs/fidelity.md) */
    label: f.requiredString(),
    name: f.string(),
    color: f.string(),
    type: f.string(),
    createdAt: f.createdAt(),
    updatedAt: f.updatedAt(),
  },
});

export const industry = defineEntity({
  type: 'industry',
  table: 'industry',
  module: 'crm',
  defaultSort: [{ path: 'name', dir: 'asc' }],
  fields: { id: f.id(), name: f.requiredString(), createdAt: f.createdAt(), updatedAt: f.updatedAt() },
});

export const organizationSize = defineEntity({
  type: 'organizationsize',
  table: 'organization_size',
  module: 'crm',
  defaultSort: [{ path: 'name', dir: 'asc' }],
  fields: { id: f.id(), name: f.requiredString(), createdAt: f.createdAt(), updatedAt: f.updatedAt() },
});

export const interest = defineEntity({
  type: 'interest',
  table: 'interest',
  module: 'crm',
  defaultSort: [{ path: 'name', dir: 'asc' }],
  fields: {
    id: f.id(),
    name: f.requiredString(),
    apiName: f.string(),
    /** offered on organizations */
    organization: f.boolean(),
    /** offered on persons */
    person: f.boolean(),
  },
});

export const country = defineEntity({
  type: 'country',
  table: 'country',
  module: 'crm',
  defaultSort: [{ path: 'name', dir: 'asc' }],
  fields: { id: f.id(), name: f.requiredString(), countryCode: f.requiredString(), languageCode: f.string() },
});

export const gender = defineEntity({
  type: 'gender',
  table: 'gender',
  module: 'crm',
  defaultSort: [{ path: 'name', dir: 'asc' }],
  fields: { id: f.id(), name: f.requiredString() },
});

/** An external mailing list a person's address can be put on. */
export const mailingList = defineEntity({
  type: 'mailinglist',
  table: 'mailing_list',
  module: 'crm',
  defaultSort: [{ path: 'name', dir: 'asc' }],
  fields: { id: f.id(), name: f.requiredString() },
});

/** How other entities embed a piece of reference data. */
export const relationTypeReference = z.object({
  id: z.string(),
  label: z.string(),
  color: z.string().nullable(),
  type: z.string().nullable(),
});
export const namedReference = z.object({ id: z.string(), name: z.string() });
export const interestReference = z.object({
  id: z.string(),
  name: z.string(),
  apiName: z.string().nullable(),
  organization: z.boolean(),
  person: z.boolean(),
});

export type Country = z.infer<typeof country.schema>;
export type Gender = z.infer<typeof gender.schema>;
export type Industry = z.infer<typeof industry.schema>;
export type Interest = z.infer<typeof interest.schema>;
export type OrganizationSize = z.infer<typeof organizationSize.schema>;
export type RelationType = z.infer<typeof relationType.schema>;
