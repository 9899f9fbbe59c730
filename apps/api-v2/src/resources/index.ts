import { organizationV2 } from './crm/organization.js';
import { saleCustomFieldGroupV2, saleCustomFieldV2 } from './sales/sale-custom-field.js';
import { convertToProjectV2, saleV2Resource } from './sales/sale.js';
import { saleDocumentTypeV2, saleDocumentV2 } from './sales/document.js';
import {
  quoteStatusV2,
  quoteTemplateV2,
  revenueGroupV2,
  salesFilterV2,
  salesProgressV2,
  salesReasonV2,
  salesSourceV2,
  salesStatusV2,
} from './sales/lookups.js';
import { quoteEmailV2, quoteV2Resource, saleQuoteV2Resource } from './sales/quote.js';
import { saleServiceV2Resource } from './sales/service.js';
import type { AnyV2Resource, V2Operation } from './v2-resource.js';

/** Every v2 resource declared the new way; the rest are still mounted from the domain's registry. */
export const v2Resources: AnyV2Resource[] = [organizationV2];
v2Resources.push(saleV2Resource, saleCustomFieldV2, saleCustomFieldGroupV2);
v2Resources.push(
  saleServiceV2Resource,
  quoteV2Resource,
  saleQuoteV2Resource,
  quoteTemplateV2,
  quoteStatusV2,
  revenueGroupV2,
  salesReasonV2,
  salesSourceV2,
  salesStatusV2,
  salesProgressV2,
  salesFilterV2,
  saleDocumentV2,
  saleDocumentTypeV2,
);

/** Operations of their own path on one row (sales/quoteemail/{id}, sales/converttoproject/{id}). */
export const v2Operations: V2Operation[] = [];
v2Operations.push(quoteEmailV2, convertToProjectV2);
