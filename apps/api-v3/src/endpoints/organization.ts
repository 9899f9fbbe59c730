import type { Organization } from '@bo/domain/crm/organization/organization.entity';
import { z } from 'zod';
import { getEndpoint, listEndpoint, type NamedSchema } from './types.js';

const address = z
  .object({
    type: z.string().nullable(),
    line1: z.string().nullable(),
    line2: z.string().nullable(),
    postalCode: z.string().nullable(),
    province: z.string().nullable(),
    locality: z.string().nullable(),
    countryCode: z.string().nullable(),
  })
  .nullable();
const named = z.object({ id: z.string(), name: z.string() }).nullable();

/** v3 shape of an organization. */
const OrganizationV3 = z.object({
  id: z.string(),
  name: z.string(),
  cocCode: z.string().nullable(),
  vatNumber: z.string().nullable(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  url: z.string().nullable(),
  note: z.string().nullable(),
  linkedinUrl: z.string().nullable(),
  relationNumber: z.string().nullable(),
  isActive: z.boolean(),
  relationType: z.object({ id: z.string(), label: z.string() }).nullable(),
  industry: named,
  organizationSize: named,
  visitingAddress: address,
  postalAddress: address,
  sendInvoiceEmailToContact: z.boolean(),
  sendInvoiceEmailToProjectContact: z.boolean(),
  sendInvoiceEmailToFixedEmail: z.boolean(),
  sendInvoiceEmailToCc: z.boolean(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});

const schema: NamedSchema = { name: 'Crm.Organization', schema: OrganizationV3 };

function addressV3(a: Organization['visitingAddress']): z.infer<typeof address> {
  if (!a) return null;
  return {
    type: a.type,
    line1: a.line1,
    line2: a.line2,
    postalCode: a.postalCode,
    province: a.province,
    locality: a.locality,
    countryCode: a.countryCode,
  };
}

export function organizationV3(o: Organization): z.infer<typeof OrganizationV3> {
  return {
    id: o.id,
    name: o.name,
    cocCode: o.cocCode,
    vatNumber: o.vatNumber,
    email: o.email,
    phone: o.phone,
    url: o.url,
    note: o.note,
    linkedinUrl: o.linkedinUrl,
    relationNumber: o.relationNumber,
    isActive: o.isActive,
    relationType: o.relationType ? { id: o.relationType.id, label: o.relationType.label } : null,
    industry: o.industry,
    organizationSize: o.organizationSize,
    visitingAddress: addressV3(o.visitingAddress),
    postalAddress: addressV3(o.postalAddress),
    sendInvoiceEmailToContact: o.sendInvoiceEmailToContact,
    sendInvoiceEmailToProjectContact: o.sendInvoiceEmailToProjectContact,
    sendInvoiceEmailToFixedEmail: o.sendInvoiceEmailToFixedEmail,
    sendInvoiceEmailToCc: o.sendInvoiceEmailToCc,
    createdAt: o.createdAt.toISOString(),
    updatedAt: o.updatedAt.toISOString(),
  };
}

export const organizationEndpoints = {
  'organization.list': listEndpoint<Organization>({
    call: (c) => c.crm.organization.list,
    filters: { name: 'name' },
    map: organizationV3,
    doc: { summary: 'Organizations, paged', response: schema, errors: [400, 403] },
  }),
  'organization.get': getEndpoint<Organization>({
    call: (c) => c.crm.organization.get,
    map: organizationV3,
    doc: { summary: 'One organization', response: schema, errors: [403, 404] },
  }),
};
