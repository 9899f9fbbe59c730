import { SCOPED_ENVIRONMENT } from '@bo/db';
import { type EntityTransaction, getEntity, inWrite, recordChange, type WriteContext } from '../../shared/entity/index.js';
import { BusinessRuleError, UnavailableError } from '../../shared/errors.js';
import { newEntityId } from '../../shared/ids.js';
import type { FileStorage } from '../../shared/storage.js';
import type { UserContext } from '../../trpc.js';
import { storeInvoicePdf } from '../pdf/store-invoice-pdf.js';
import { type Invoice, invoice } from './invoice.entity.js';
import { nextInvoiceNumber } from './invoice-number.js';
import { defaultPaymentTerm, dueDateOf, lockedInvoice, writeLines } from './invoice.write.js';

const today = (now: Date) => new Date(`${now.toISOString().slice(0, 10)}T00:00:00.000Z`);

export function requireStorage(ctx: UserContext): FileStorage {
  const storage = ctx.services?.storage;
  if (!storage) throw new UnavailableError('file storage is not configured: an invoice document cannot be stored');
  return storage;
}

/** Runs a sending transaction; when it fails, the PDF bytes it wrote are removed (no document row names them). */
async function cleaningUp<T>(storage: FileStorage, written: string[], body: () => Promise<T>): Promise<T> {
  try {
    return await body();
  } catch (err) {
    await Promise.all(written.map((key) => storage.remove(key).catch(() => {})));
    throw err;
  }
}

/**
 * An invoice leaves draft: it gets the next number of the environment, its invoice
 * and due dates, and its PDF document, all in the caller's transaction.
 */
async function issue(
  w: WriteContext,
  storage: FileStorage,
  id: string,
  invoiceDate: Date,
  paymentTermId: string | null,
  written: string[],
): Promise<void> {
  const term = paymentTermId
    ? await w.tx.paymentTerm.findFirst({ where: { id: paymentTermId } })
    : await defaultPaymentTerm(w.tx);
  const { sequence, number } = await nextInvoiceNumber(w);
  await w.tx.invoice.update({
    where: { id },
    data: {
      status: 'sent',
      invoiceSequence: sequence,
      invoiceNumber: number,
      invoiceDate,
      dueDate: dueDateOf(invoiceDate, term?.days ?? null),
      paymentTermId: term?.id ?? null,
      sentAt: w.now,
      updatedAt: w.now,
    },
  });
  await storeInvoicePdf(w, storage, id, written);
}

/** What a sent invoice billed is invoiced: its services may no longer be edited, its installments are invoiced. */
async function markBilled(tx: EntityTransaction, id: string): Promise<void> {
  const lines = await tx.invoiceLine.findMany({ where: { invoiceId: id, projectServiceId: { not: null } } });
  const services = [...new Set(lines.map((l) => l.projectServiceId as string))];
  if (services.length) await tx.projectService.updateMany({ where: { id: { in: services } }, data: { status: 'invoiced' } });
  await tx.projectServiceInstallment.updateMany({ where: { invoiceId: id }, data: { status: 'invoiced' } });
}

/**
 * Sends a locked draft inside the caller's transaction: it needs lines and a debtor; it
 * is numbered, dated and rendered, and what it bills becomes invoiced.
 */
export async function sendWithin(
  w: WriteContext,
  storage: FileStorage,
  id: string,
  invoiceDate: Date | undefined,
  written: string[],
) {
  const row = await lockedInvoice(w, id);
  if (row.status !== 'draft') throw new BusinessRuleError(`invoice ${row.id} is ${row.status}: only a draft can be sent`);
  const lines = await w.tx.invoiceLine.count({ where: { invoiceId: row.id } });
  if (lines === 0) throw new BusinessRuleError(`invoice ${row.id} has no lines: there is nothing to send`);
  if (!row.organizationId && !row.personId) {
    throw new BusinessRuleError(`invoice ${row.id} has no debtor: set organizationId or personId first`);
  }
  await issue(w, storage, row.id, invoiceDate ?? row.invoiceDate ?? today(w.now), row.paymentTermId, written);
  await markBilled(w.tx, row.id);
}

/** invoice.send: a draft with lines and a debtor is numbered, dated, rendered and sent (no mail leaves). */
export async function sendInvoice(ctx: UserContext, input: { id: string; invoiceDate?: Date | undefined }): Promise<Invoice> {
  const storage = requireStorage(ctx);
  const written: string[] = [];
  await cleaningUp(storage, written, () =>
    inWrite(ctx, async (w) => {
      await sendWithin(w, storage, input.id, input.invoiceDate, written);
      await recordChange(w, invoice, input.id, 'updated');
    }),
  );
  return getEntity(ctx, invoice, input.id);
}

/**
 * invoice.credit: a credit invoice reverses a sent invoice line by line (negated
 * quantities); it is numbered and rendered at once, and the original becomes credited.
 */
export async function creditInvoice(
  ctx: UserContext,
  input: { id: string; invoiceDate?: Date | undefined; reason?: string | null | undefined },
): Promise<Invoice> {
  const storage = requireStorage(ctx);
  const written: string[] = [];
  const creditId = await cleaningUp(storage, written, () =>
    inWrite(ctx, async (w) => {
      const row = await lockedInvoice(w, input.id);
      if (row.kind === 'credit') throw new BusinessRuleError(`invoice ${row.id} is a credit invoice; it cannot be credited`);
      if (row.status === 'draft') throw new BusinessRuleError(`invoice ${row.id} is a draft: delete it instead of crediting it`);
      if (row.status === 'credited') throw new BusinessRuleError(`invoice ${row.id} has been credited already`);
      const lines = await w.tx.invoiceLine.findMany({ where: { invoiceId: row.id }, orderBy: { position: 'asc' } });
      const id = newEntityId('invoice');
      await w.tx.invoice.create({
        data: {
          id,
          environmentId: SCOPED_ENVIRONMENT,
          kind: 'credit',
          status: 'draft',
          organizationId: row.organizationId,
          personId: row.personId,
          projectId: row.projectId,
          myOrganizationProfileId: row.myOrganizationProfileId,
          creditedInvoiceId: row.id,
          subject: row.subject ? `Credit: ${row.subject}` : `Credit of invoice ${row.invoiceNumber}`,
          reference: row.invoiceNumber,
          comments: input.reason ?? null,
          totalAmount: 0,
        },
      });
      // the credit lines carry no source: what the original billed stays billed once
      await writeLines(
        w.tx,
        id,
        lines.map((l) => ({
          description: l.description,
          quantity: l.quantity.negated().toString(),
          price: l.price.toString(),
          vatClassId: l.vatClassId,
          revenueGroupId: l.revenueGroupId,
          projectServiceId: l.projectServiceId,
          projectId: l.projectId,
          lineDate: l.lineDate,
        })),
      );
      await issue(w, storage, id, input.invoiceDate ?? today(w.now), null, written);
      // a credit invoice settles itself against the original: nothing is due on it
      await w.tx.invoice.update({ where: { id }, data: { dueDate: null } });
      await w.tx.invoice.update({ where: { id: row.id }, data: { status: 'credited', updatedAt: w.now } });
      await recordChange(w, invoice, id, 'created');
      await recordChange(w, invoice, row.id, 'updated');
      return id;
    }),
  );
  return getEntity(ctx, invoice, creditId);
}
