import type { Models } from '@bo/db';
import { num } from '../shared/numbers.js';

/**
 * An invoice as its events carry it, in domain terms: amounts are numbers, dates ISO 8601.
 * (Invoicing declares the invoice entity in full; until then this is its payload.)
 */
export function invoicePayload(i: Models.InvoiceModel & { lines: Models.InvoiceLineModel[] }): Record<string, unknown> {
  return {
    id: i.id,
    invoiceNumber: i.invoiceNumber,
    status: i.status,
    organizationId: i.organizationId,
    personId: i.personId,
    projectId: i.projectId,
    draftRequestId: i.draftRequestId,
    invoiceDate: i.invoiceDate ? i.invoiceDate.toISOString().slice(0, 10) : null,
    totalAmount: num(i.totalAmount),
    lines: i.lines.map((l) => ({
      id: l.id,
      projectServiceId: l.projectServiceId,
      description: l.description,
      quantity: num(l.quantity),
      price: num(l.price),
      amount: num(l.amount),
    })),
    createdAt: i.createdAt.toISOString(),
    updatedAt: i.updatedAt.toISOString(),
  };
}
