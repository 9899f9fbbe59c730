import type { AnyV2Resource } from '../v2-resource.js';
import { invoiceV2Resource, paymentV2Resource } from './invoice.js';
import {
  invoiceDocumentTypeV2,
  invoiceStatusV2,
  invoiceVatClassV2,
  paymentTermV2Resource,
  propositionV2,
  reminderSetV2,
  reminderTemplateV2,
  reverseInvoiceV2,
} from './lookups.js';

/** The invoices module's v2 resources (invoices/document is the documents module's), and projects/reverseinvoice. */
export const invoicesV2Resources: AnyV2Resource[] = [
  invoiceV2Resource,
  paymentV2Resource,
  paymentTermV2Resource,
  invoiceStatusV2,
  reminderSetV2,
  reminderTemplateV2,
  invoiceVatClassV2,
  propositionV2,
  reverseInvoiceV2,
  invoiceDocumentTypeV2,
];
