import type { Models } from '@bo/db';
import { v3DateTime } from '../shared/format.js';
import { num } from '../shared/numbers.js';

/** v3 shape of an invoice (as webhooks carry it); amounts are numbers, dates ISO 8601. */
export function invoiceV3(i: Models.InvoiceModel & { lines: Models.InvoiceLineModel[] }): Record<string, unknown> {
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
    createdAt: v3DateTime(i.createdAt),
    updatedAt: v3DateTime(i.updatedAt),
  };
}
