import { z } from 'zod';

/** v3 shape of an organization (organizationV3 in organization.resource.ts), for the OpenAPI document. */
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

export const OrganizationOutput = z.object({
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
