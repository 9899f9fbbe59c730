import { myOrganizationProfileTarget } from '../../crm/myorganization/myorganizationprofile.target.js';
import type { TenantReader } from '@bo/db';
import { vatClass } from '../../sales/lookups/lookups.entity.js';
import { revenueGroup } from '../../sales/lookups/lookups.entity.js';
import { project } from '../../projects/project/project.entity.js';
import { projectService } from '../../projects/service/project-service.entity.js';
import type { ReferenceCheck, SqlWriteContext } from '../../shared/entity/index.js';
import { BusinessRuleError, NotFoundError, ValidationError } from '../../shared/errors.js';
import { newEntityId } from '../../shared/ids.js';
import { invoiceStatus, paymentTerm, reminderSet } from '../lookups/invoice-lookups.entity.js';
import { insertRows } from '../sql-writes.js';
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

/** A date as `YYYY-MM-DD` (date columns are written and read so, never through a time zone). */
export const isoDay = (d: Date): string => d.toISOString().slice(0, 10);
/** A stored `YYYY-MM-DD` as the date (UTC midnight) the domain works with. */
export const dateOfDay = (d: string): Date => new Date(`${d}T00:00:00.000Z`);

const LINE_COLUMNS = [
  'id',
  'invoice_id',
  'description',
  'quantity',
  'price',
  'amount',
  'vat_class_id',
  'vat_percentage',
  'vat_amount',
  'revenue_group_id',
  'project_service_id',
  'project_id',
  'line_date',
  'source_type',
  'source_id',
  'position',
  'updated_at',
] as const;

/**
 * Replaces the lines of an invoice and stores its totals, all computed by
 * computeInvoiceAmounts: the stored totals are the sums of the stored lines.
 * One read (the VAT classes' percentages, when lines name any); the writes are queued.
 */
export async function writeLines(
  w: Pick<SqlWriteContext, 'sql' | 'now'>,
  invoiceId: string,
  lines: StoredLineInput[],
): Promise<void> {
  const { sql, now } = w;
  const classIds = [...new Set(lines.map((l) => l.vatClassId).filter((v): v is string => !!v))];
  const classes = classIds.length
    ? await sql.read<{ id: string; percentage: string }>(
        'SELECT id, percentage::text AS percentage FROM vat_class WHERE environment_id = $1 AND id = ANY($2::text[])',
        [classIds],
      )
    : [];
  const percentage = new Map(classes.map((c) => [c.id, c.percentage]));
  const amounts = computeInvoiceAmounts(
    lines.map((l) => ({
      quantity: l.quantity,
      price: l.price,
      vatPercentage: (l.vatClassId && percentage.get(l.vatClassId)) || 0,
    })),
  );
  await sql.queue('DELETE FROM invoice_line WHERE environment_id = $1 AND invoice_id = $2', [invoiceId]);
  await insertRows(
    sql,
    'invoice_line',
    LINE_COLUMNS,
    lines.map((l, position) => [
      newEntityId('invoiceline'),
      invoiceId,
      l.description,
      String(l.quantity),
      String(l.price),
      amounts.lines[position]?.amount ?? '0',
      l.vatClassId ?? null,
      (l.vatClassId && percentage.get(l.vatClassId)) || '0',
      amounts.lines[position]?.vat ?? '0',
      l.revenueGroupId ?? null,
      l.projectServiceId ?? null,
      l.projectId ?? null,
      l.lineDate ? isoDay(l.lineDate) : null,
      l.sourceType ?? null,
      l.sourceId ?? null,
      position,
      now,
    ]),
  );
  await sql.update('invoice', invoiceId, {
    total_amount: amounts.excl,
    total_vat: amounts.vat,
    total_incl: amounts.incl,
    updated_at: now,
  });
}

/**
 * What a write's statusId asks for: to stay a draft (none, or the draft status) or to be
 * sent; paid follows payments and credited follows invoice.credit, so those are refused.
 */
export async function requestedSend(sql: TenantReader, statusId: string | null | undefined): Promise<boolean> {
  if (!statusId) return false;
  const [status] = await sql.read<{ key: string; name: string }>(
    'SELECT key, name FROM invoice_status WHERE environment_id = $1 AND id = $2',
    [statusId],
  );
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

/** The invoice as the write paths read it (dates as the domain's UTC midnights). */
export interface StoredInvoice {
  id: string;
  kind: string;
  status: string;
  invoiceNumber: string | null;
  organizationId: string | null;
  personId: string | null;
  projectId: string | null;
  myOrganizationProfileId: string | null;
  paymentTermId: string | null;
  invoiceDate: Date | null;
  subject: string | null;
}

/**
 * The invoice, locked (FOR UPDATE) and read in one statement (a row locked after waiting is read as
 * the writer left it): it must still be a draft to be changed. Whatever else the caller reads of the
 * invoice it reads in statements after this one, so that they see what the lock waited for.
 */
export async function lockedInvoice(w: Pick<SqlWriteContext, 'sql'>, id: string): Promise<StoredInvoice> {
  const [row] = await w.sql.read<Omit<StoredInvoice, 'invoiceDate'> & { invoiceDate: string | null }>(
    `SELECT i.id, i.kind, i.status, i.invoice_number AS "invoiceNumber", i.organization_id AS "organizationId",
            i.person_id AS "personId", i.project_id AS "projectId", i.my_organization_profile_id AS "myOrganizationProfileId",
            i.payment_term_id AS "paymentTermId", to_char(i.invoice_date, 'YYYY-MM-DD') AS "invoiceDate", i.subject
       FROM invoice i WHERE i.environment_id = $1 AND i.id = $2 FOR UPDATE`,
    [id],
  );
  if (!row) throw new NotFoundError('invoice', id);
  return { ...row, invoiceDate: row.invoiceDate === null ? null : dateOfDay(row.invoiceDate) };
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

export interface PaymentTermRow {
  id: string;
  days: number;
}

/** A payment term of the environment by id (null: none, or not of this environment). */
export async function paymentTermById(sql: TenantReader, id: string): Promise<PaymentTermRow | null> {
  const [term] = await sql.read<PaymentTermRow>('SELECT id, days FROM payment_term WHERE environment_id = $1 AND id = $2', [id]);
  return term ?? null;
}

/** The default payment term of the environment (seeded): the default one with the fewest days, else any with the fewest. */
export async function defaultPaymentTerm(sql: TenantReader): Promise<PaymentTermRow | null> {
  const [term] = await sql.read<PaymentTermRow>(
    'SELECT id, days FROM payment_term WHERE environment_id = $1 ORDER BY is_default DESC, days ASC, id ASC LIMIT 1',
  );
  return term ?? null;
}
