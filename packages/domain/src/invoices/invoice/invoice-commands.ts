import type { TenantReader } from '@bo/db';
import { getEntity, inSqlWrite, recordChange, type SqlWriteContext, withReservedRender } from '../../shared/entity/index.js';
import { BusinessRuleError, UnavailableError } from '../../shared/errors.js';
import { newEntityId } from '../../shared/ids.js';
import type { FileStorage } from '../../shared/storage.js';
import { reserveInvoiceRender } from '../../rendering/bounded.js';
import type { RenderReservation } from '../../rendering/render-pool.js';
import type { UserContext } from '../../trpc.js';
import { storeInvoicePdf } from '../pdf/store-invoice-pdf.js';
import { type Invoice, invoice } from './invoice.entity.js';
import { nextInvoiceNumber } from './invoice-number.js';
import { dateOfDay, defaultPaymentTerm, dueDateOf, isoDay, lockedInvoice, paymentTermById, writeLines } from './invoice.write.js';

const today = (now: Date) => new Date(`${now.toISOString().slice(0, 10)}T00:00:00.000Z`);

export function requireStorage(ctx: UserContext): FileStorage {
  const storage = ctx.services?.storage;
  if (!storage) throw new UnavailableError('file storage is not configured: an invoice document cannot be stored');
  return storage;
}

/**
 * Runs a sending transaction with a render process taken before it begins (the wait for one, and its
 * start, are not spent holding the invoice and the environment's numbering); when it fails, the PDF
 * bytes it wrote are removed (no document row names them).
 */
async function sending<T>(
  ctx: UserContext,
  storage: FileStorage,
  body: (written: string[], reserved: RenderReservation | undefined) => Promise<T>,
): Promise<T> {
  const written: string[] = [];
  try {
    return await withReservedRender(reserveInvoiceRender(ctx), (reserved) => body(written, reserved));
  } catch (err) {
    await Promise.all(written.map((key) => storage.remove(key).catch(() => {})));
    throw err;
  }
}

/** A write that may send the invoice (its status set to a sent one) takes a render process before its transaction. */
export const reserveRenderToSend = (ctx: UserContext, input: { statusId?: string | null | undefined }) =>
  input.statusId ? reserveInvoiceRender(ctx) : Promise.resolve(undefined);

/**
 * An invoice leaves draft: it gets the next number of the environment, its invoice
 * and due dates, and its PDF document, all in the caller's transaction.
 */
async function issue(
  w: SqlWriteContext,
  storage: FileStorage,
  id: string,
  invoiceDate: Date,
  paymentTermId: string | null,
  written: string[],
): Promise<void> {
  const term = paymentTermId ? await paymentTermById(w.sql, paymentTermId) : await defaultPaymentTerm(w.sql);
  const { sequence, number } = await nextInvoiceNumber(w);
  const due = dueDateOf(invoiceDate, term?.days ?? null);
  await w.sql.update('invoice', id, {
    status: 'sent',
    invoice_sequence: sequence,
    invoice_number: number,
    invoice_date: isoDay(invoiceDate),
    due_date: due ? isoDay(due) : null,
    payment_term_id: term?.id ?? null,
    sent_at: w.now,
    updated_at: w.now,
  });
  await storeInvoicePdf(w, storage, id, written);
}

/**
 * What a sent invoice billed is invoiced: its services may no longer be edited, its installments
 * are invoiced. Two statements, queued; the services' rows are locked by their update as before.
 */
async function markBilled(sql: TenantReader, id: string, now: Date): Promise<void> {
  await sql.queue(
    `UPDATE project_service SET status = 'invoiced', updated_at = $3
      WHERE environment_id = $1
        AND id IN (SELECT l.project_service_id FROM invoice_line l
                    WHERE l.environment_id = $1 AND l.invoice_id = $2 AND l.project_service_id IS NOT NULL)`,
    [id, now],
  );
  await sql.queue(`UPDATE project_service_installment SET status = 'invoiced' WHERE environment_id = $1 AND invoice_id = $2`, [
    id,
  ]);
}

/**
 * Sends a locked draft inside the caller's transaction: it needs lines and a debtor; it
 * is numbered, dated and rendered, and what it bills becomes invoiced.
 */
export async function sendWithin(
  w: SqlWriteContext,
  storage: FileStorage,
  id: string,
  invoiceDate: Date | undefined,
  written: string[],
) {
  const row = await lockedInvoice(w, id);
  if (row.status !== 'draft') throw new BusinessRuleError(`invoice ${row.id} is ${row.status}: only a draft can be sent`);
  const [counted] = await w.sql.read<{ lines: number }>(
    'SELECT count(*)::int AS lines FROM invoice_line WHERE environment_id = $1 AND invoice_id = $2',
    [row.id],
  );
  if (!counted?.lines) throw new BusinessRuleError(`invoice ${row.id} has no lines: there is nothing to send`);
  if (!row.organizationId && !row.personId) {
    throw new BusinessRuleError(`invoice ${row.id} has no debtor: set organizationId or personId first`);
  }
  await issue(w, storage, row.id, invoiceDate ?? row.invoiceDate ?? today(w.now), row.paymentTermId, written);
  await markBilled(w.sql, row.id, w.now);
}

/** invoice.send: a draft with lines and a debtor is numbered, dated, rendered and sent (no mail leaves). */
export async function sendInvoice(ctx: UserContext, input: { id: string; invoiceDate?: Date | undefined }): Promise<Invoice> {
  const storage = requireStorage(ctx);
  await sending(ctx, storage, (written, reserved) =>
    inSqlWrite(
      ctx,
      async (w) => {
        await sendWithin(w, storage, input.id, input.invoiceDate, written);
        await recordChange(w, invoice, input.id, 'updated', false);
      },
      undefined,
      reserved,
    ),
  );
  return getEntity(ctx, invoice, input.id);
}

/** A line of the credited invoice, as stored (decimals as text, the date as YYYY-MM-DD). */
interface CreditedLine {
  description: string;
  quantity: string;
  price: string;
  vatClassId: string | null;
  revenueGroupId: string | null;
  projectServiceId: string | null;
  projectId: string | null;
  lineDate: string | null;
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
  const creditId = await sending(ctx, storage, (written, reserved) =>
    inSqlWrite(
      ctx,
      async (w) => {
        const row = await lockedInvoice(w, input.id);
        if (row.kind === 'credit') throw new BusinessRuleError(`invoice ${row.id} is a credit invoice; it cannot be credited`);
        if (row.status === 'draft')
          throw new BusinessRuleError(`invoice ${row.id} is a draft: delete it instead of crediting it`);
        if (row.status === 'credited') throw new BusinessRuleError(`invoice ${row.id} has been credited already`);
        // the quantities negated by PostgreSQL's numeric, exactly
        const lines = await w.sql.read<CreditedLine>(
          `SELECT description, (-quantity)::text AS quantity, price::text AS price, vat_class_id AS "vatClassId",
                revenue_group_id AS "revenueGroupId", project_service_id AS "projectServiceId", project_id AS "projectId",
                to_char(line_date, 'YYYY-MM-DD') AS "lineDate"
           FROM invoice_line WHERE environment_id = $1 AND invoice_id = $2 ORDER BY position ASC`,
          [row.id],
        );
        const id = newEntityId('invoice');
        await w.sql.insert('invoice', {
          id,
          kind: 'credit',
          status: 'draft',
          organization_id: row.organizationId,
          person_id: row.personId,
          project_id: row.projectId,
          my_organization_profile_id: row.myOrganizationProfileId,
          credited_invoice_id: row.id,
          subject: row.subject ? `Credit: ${row.subject}` : `Credit of invoice ${row.invoiceNumber}`,
          reference: row.invoiceNumber,
          comments: input.reason ?? null,
          total_amount: 0,
          updated_at: w.now,
        });
        // the credit lines carry no source: what the original billed stays billed once
        await writeLines(
          w,
          id,
          lines.map((l) => ({
            description: l.description,
            quantity: l.quantity,
            price: l.price,
            vatClassId: l.vatClassId,
            revenueGroupId: l.revenueGroupId,
            projectServiceId: l.projectServiceId,
            projectId: l.projectId,
            lineDate: l.lineDate === null ? null : dateOfDay(l.lineDate),
          })),
        );
        await issue(w, storage, id, input.invoiceDate ?? today(w.now), null, written);
        // a credit invoice settles itself against the original: nothing is due on it
        await w.sql.update('invoice', id, { due_date: null, updated_at: w.now });
        await w.sql.update('invoice', row.id, { status: 'credited', updated_at: w.now });
        await recordChange(w, invoice, id, 'created', false);
        await recordChange(w, invoice, row.id, 'updated', false);
        return id;
      },
      undefined,
      reserved,
    ),
  );
  return getEntity(ctx, invoice, creditId);
}
