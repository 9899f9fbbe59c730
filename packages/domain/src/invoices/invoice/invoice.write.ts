import { myOrganizationProfileTarget } from '../../crm/myorganization/myorganizationprofile.target.js';
import { SCOPED_ENVIRONMENT } from '@bo/db';
import { vatClass } from '../../sales/lookups/lookups.entity.js';
import { revenueGroup } from '../../sales/lookups/lookups.entity.js';
import { project } from '../../projects/project/project.entity.js';
import { projectService } from '../../projects/service/project-service.entity.js';
import type { EntityTransaction, ReferenceCheck, WriteContext } from '../../shared/entity/index.js';
import { BusinessRuleError, NotFoundError, ValidationError } from '../../shared/errors.js';
import { newEntityId } from '../../shared/ids.js';
import { invoiceStatus, paymentTerm, reminderSet } from '../lookups/invoice-lookups.entity.js';
import { computeInvoiceAmounts } from './invoice-totals.js';
import type { InvoiceLineInput, UpdateInvoiceInput } from './invoice.schema.js';

/** A line as the write path stores it: the input's, or a drafted source's, with what it bills. */
export interface StoredLineInput {
  description: string;
  quantity: string | number;
  price: string | number;
  vatClassId?: string | null | undefined;
  revenueGroupId?: string | null | undefined;
  projectServiceId?: string | null | undefined;
  projectId?: string | null | undefined;
  lineDate?: Date | null | undefined;
  sourceType?: string | null;
  sourceId?: string | null;
}

export function invoiceReferences(input: UpdateInvoiceInput): ReferenceCheck[] {
  return [
    { path: 'paymentTermId', target: paymentTerm, id: input.paymentTermId },
    { path: 'statusId', target: invoiceStatus, id: input.statusId },
    { path: 'reminderSetId', target: reminderSet, id: input.reminderSetId },
    { path: 'projectId', target: project, id: input.projectId },
    { path: 'myOrganizationProfileId', target: myOrganizationProfileTarget, id: input.myOrganizationProfileId },
    ...(input.lines ?? []).flatMap((l, n) => [
      { path: `lines.${n}.vatClassId`, target: vatClass, id: l.vatClassId },
      { path: `lines.${n}.revenueGroupId`, target: revenueGroup, id: l.revenueGroupId },
      { path: `lines.${n}.projectServiceId`, target: projectService, id: l.projectServiceId },
      { path: `lines.${n}.projectId`, target: project, id: l.projectId },
    ]),
  ];
}

export const fromInput = (l: InvoiceLineInput): StoredLineInput => ({
  description: l.description ?? 'Invoice line',
  quantity: l.quantity,
  price: l.price,
  vatClassId: l.vatClassId,
  revenueGroupId: l.revenueGroupId,
  projectServiceId: l.projectServiceId,
  projectId: l.projectId,
  lineDate: l.lineDate,
});

/**
 * Replaces the lines of an invoice and stores its totals, all computed by
 * computeInvoiceAmounts: the stored totals are the sums of the stored lines.
 */
export async function writeLines(tx: EntityTransaction, invoiceId: string, lines: StoredLineInput[]): Promise<void> {
  const classIds = [...new Set(lines.map((l) => l.vatClassId).filter((v): v is string => !!v))];
  const classes = classIds.length ? await tx.vatClass.findMany({ where: { id: { in: classIds } } }) : [];
  const percentage = new Map(classes.map((c) => [c.id, c.percentage.toString()]));
  const amounts = computeInvoiceAmounts(
    lines.map((l) => ({
      quantity: l.quantity,
      price: l.price,
      vatPercentage: (l.vatClassId && percentage.get(l.vatClassId)) || 0,
    })),
  );
  await tx.invoiceLine.deleteMany({ where: { invoiceId } });
  if (lines.length) {
    await tx.invoiceLine.createMany({
      data: lines.map((l, position) => ({
        id: newEntityId('invoiceline'),
        environmentId: SCOPED_ENVIRONMENT,
        invoiceId,
        description: l.description,
        quantity: String(l.quantity),
        price: String(l.price),
        amount: amounts.lines[position]?.amount ?? '0',
        vatClassId: l.vatClassId ?? null,
        vatPercentage: (l.vatClassId && percentage.get(l.vatClassId)) || '0',
        vatAmount: amounts.lines[position]?.vat ?? '0',
        revenueGroupId: l.revenueGroupId ?? null,
        projectServiceId: l.projectServiceId ?? null,
        projectId: l.projectId ?? null,
        lineDate: l.lineDate ?? null,
        sourceType: l.sourceType ?? null,
        sourceId: l.sourceId ?? null,
        position,
      })),
    });
  }
  await tx.invoice.update({
    where: { id: invoiceId },
    data: { totalAmount: amounts.excl, totalVat: amounts.vat, totalIncl: amounts.incl },
  });
}

/**
 * What a write's statusId asks for: to stay a draft (none, or the draft status) or to be
 * sent; paid follows payments and credited follows invoice.credit, so those are refused.
 */
export async function requestedSend(tx: EntityTransaction, statusId: string | null | undefined): Promise<boolean> {
  if (!statusId) return false;
  const status = await tx.invoiceStatus.findFirst({ where: { id: statusId } });
  if (!status || status.key === 'draft') return false;
  if (status.key === 'sent') return true;
  throw new ValidationError([
    {
      path: 'statusId',
      message: `an invoice cannot be set to ${status.name}: payments make it paid, invoice.credit credits it; only Sent may be asked for`,
      code: 'invoice_flow',
    },
  ]);
}

/** The invoice, locked, that must still be a draft to be changed. */
export async function lockedInvoice(w: WriteContext, id: string) {
  if (!(await w.sql.lockForUpdate('invoice', id))) throw new NotFoundError('invoice', id);
  const row = await w.tx.invoice.findFirst({ where: { id } });
  if (!row) throw new NotFoundError('invoice', id);
  return row;
}

export function assertDraft(row: { id: string; status: string }, action: string): void {
  if (row.status !== 'draft') {
    throw new BusinessRuleError(
      `invoice ${row.id} is ${row.status}: only a draft can be ${action} (a sent invoice is credited instead)`,
    );
  }
}

/** The due date: the invoice date plus the payment term's days. */
export function dueDateOf(invoiceDate: Date | null, days: number | null): Date | null {
  if (!invoiceDate || days === null) return null;
  return new Date(invoiceDate.getTime() + days * 86_400_000);
}

/** The default payment term of the environment (seeded). */
export async function defaultPaymentTerm(tx: EntityTransaction) {
  return (
    (await tx.paymentTerm.findFirst({ where: { isDefault: true }, orderBy: { days: 'asc' } })) ??
    (await tx.paymentTerm.findFirst({ orderBy: { days: 'asc' } }))
  );
}
