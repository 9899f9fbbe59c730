import type { TenantReader } from '@bo/db';
import type { ReferenceCheck, SqlWriteContext } from '../../shared/entity/index.js';
import { BusinessRuleError, NotFoundError, ValidationError } from '../../shared/errors.js';
import { newEntityId } from '../../shared/ids.js';
import { type QuoteFlowStep, quoteStatus, quoteTemplate, vatClass } from '../lookups/lookups.entity.js';
import { sale } from '../sale.entity.js';
import { saleService } from '../service/sale-service.entity.js';
import type { StoredTotals } from './quote.entity.js';
import type { ServiceGroupInput, UpdateQuoteInput } from './quote.schema.js';
import { insertRows } from '../sql-writes.js';
import { choiceViolations, computeQuoteTotals, type TotalsGroup } from './quote-totals.js';

export function quoteReferences(input: UpdateQuoteInput & { saleId?: string }): ReferenceCheck[] {
  const lines = (input.serviceGroups ?? []).flatMap((g, n) =>
    g.services.map((s, i) => ({ s, path: `serviceGroups.${n}.services.${i}` })),
  );
  return [
    { path: 'saleId', target: sale, id: input.saleId },
    { path: 'quoteTemplateId', target: quoteTemplate, id: input.quoteTemplateId },
    { path: 'quoteStatusId', target: quoteStatus, id: input.quoteStatusId },
    ...lines.flatMap(({ s, path }) => [
      { path: `${path}.saleServiceId`, target: saleService, id: s.saleServiceId },
      { path: `${path}.vatClassId`, target: vatClass, id: s.vatClassId },
    ]),
  ];
}

/** The flow of a quote: which step may follow which. */
const NEXT: Record<QuoteFlowStep, QuoteFlowStep[]> = {
  draft: ['sent'],
  sent: ['accepted', 'rejected', 'draft'],
  accepted: [],
  rejected: ['draft'],
};

/** A quote as a write of it starts from, with the status it is to move to (when one is named). */
export interface QuoteState {
  saleId: string;
  /** the key of its status now */
  statusKey: string;
  /** the status named, found by id or by key; null when there is no such status */
  target: { id: string; key: string } | null;
}

/**
 * The quote's sale and status, and the status a write names (by id, or by its key), in one
 * statement. Read after the quote's row lock: the state as its last writer left it.
 */
export async function quoteState(
  sql: TenantReader,
  quoteId: string,
  target: { id?: string | null; key?: QuoteFlowStep } = {},
): Promise<QuoteState> {
  const [row] = await sql.read<{ sale_id: string; status_key: string; target_id: string | null; target_key: string | null }>(
    `SELECT q.sale_id, s.key AS status_key, t.id AS target_id, t.key AS target_key
       FROM quote q
       JOIN quote_status s ON s.environment_id = $1 AND s.id = q.quote_status_id
       LEFT JOIN quote_status t ON t.environment_id = $1 AND (t.id = $3 OR t.key = $4)
      WHERE q.environment_id = $1 AND q.id = $2`,
    [quoteId, target.id ?? null, target.key ?? null],
  );
  if (!row) throw new NotFoundError('quote', quoteId);
  return {
    saleId: row.sale_id,
    statusKey: row.status_key,
    target: row.target_id && row.target_key ? { id: row.target_id, key: row.target_key } : null,
  };
}

/**
 * Moves a quote from the step it is at to a step of its flow; a step that may not follow the
 * current one is refused. The change is queued with the write.
 */
export async function moveQuote(
  w: SqlWriteContext,
  quoteId: string,
  from: string,
  to: { id: string; key: string },
  path = 'quoteStatusId',
) {
  if (from === to.key) return;
  if (!(NEXT[from as QuoteFlowStep] ?? []).includes(to.key as QuoteFlowStep)) {
    throw new ValidationError([
      {
        path,
        message: `a ${from} quote cannot become ${to.key} (flow: draft → sent → accepted or rejected)`,
        code: 'quote_flow',
      },
    ]);
  }
  await w.sql.update('quote', quoteId, {
    quote_status_id: to.id,
    sent_at: to.key === 'sent' ? w.now : undefined,
    updated_at: w.now,
  });
}

interface ResolvedLine {
  saleServiceId: string | null;
  name: string;
  quantity: number | string;
  price: number | string;
  vatClassId: string | null;
  vatPercentage: string;
  chosen: boolean;
}

interface ServiceDefaults {
  id: string;
  saleId: string;
  name: string;
  amount: string | null;
  price: string | null;
  vatClassId: string | null;
}

/**
 * The sale services the lines name and the percentages of the VAT classes the lines may take
 * (named, or their service's), in one statement.
 */
async function readLineDefaults(sql: TenantReader, serviceIds: string[], classIds: string[]) {
  const [row] = await sql.read<{ services: ServiceDefaults[]; classes: Record<string, string> }>(
    `SELECT (SELECT coalesce(json_agg(json_build_object('id', s.id, 'saleId', s.sale_id, 'name', s.name,
                     'amount', s.amount::text, 'price', s.price::text, 'vatClassId', s.vat_class_id)), '[]')
               FROM sale_service s WHERE s.environment_id = $1 AND s.id = ANY($2::text[])) AS services,
            (SELECT coalesce(json_object_agg(c.id, c.percentage::text), '{}')
               FROM vat_class c
              WHERE c.environment_id = $1
                AND (c.id = ANY($3::text[])
                     OR c.id IN (SELECT s.vat_class_id FROM sale_service s WHERE s.environment_id = $1 AND s.id = ANY($2::text[])))) AS classes`,
    [serviceIds, classIds],
  );
  return { services: new Map((row?.services ?? []).map((s) => [s.id, s] as const)), classes: row?.classes ?? {} };
}

/** The lines of the groups with the sale services' defaults filled in and the VAT classes' percentages. */
async function resolveGroups(sql: TenantReader, saleId: string, groups: ServiceGroupInput[]): Promise<ResolvedLine[][]> {
  const given = groups.flatMap((g) => g.services);
  if (given.length === 0) return groups.map(() => []);
  const serviceIds = [...new Set(given.map((s) => s.saleServiceId).filter((x): x is string => !!x))];
  const classIds = [...new Set(given.map((s) => s.vatClassId).filter((x): x is string => !!x))];
  const { services, classes } = await readLineDefaults(sql, serviceIds, classIds);
  const violations = groups.flatMap((g, n) =>
    g.services.flatMap((s, i) => {
      const path = `serviceGroups.${n}.services.${i}`;
      const service = s.saleServiceId ? services.get(s.saleServiceId) : undefined;
      if (service && service.saleId !== saleId) {
        return [{ path: `${path}.saleServiceId`, message: 'the service belongs to another sale', code: 'invalid_value' }];
      }
      if (!service && s.name === undefined)
        return [{ path: `${path}.name`, message: 'This value is required.', code: 'required' }];
      return [];
    }),
  );
  if (violations.length) throw new ValidationError(violations);
  return groups.map((g) =>
    g.services.map((s) => {
      const service = s.saleServiceId ? services.get(s.saleServiceId) : undefined;
      const vatClassId = s.vatClassId !== undefined ? s.vatClassId : (service?.vatClassId ?? null);
      return {
        saleServiceId: s.saleServiceId ?? null,
        name: s.name ?? service?.name ?? '',
        quantity: s.quantity ?? service?.amount ?? 1,
        price: s.price ?? service?.price ?? 0,
        vatClassId,
        vatPercentage: vatClassId ? (classes[vatClassId] ?? '0') : '0',
        chosen: s.chosen ?? false,
      };
    }),
  );
}

/** The columns of a quote's group rows and line rows, in the order `insertRows` takes their values. */
export const GROUP_COLUMNS = ['id', 'quote_id', 'name', 'type', 'position', 'created_at', 'updated_at'] as const;
export const LINE_COLUMNS = [
  'id',
  'quote_id',
  'group_id',
  'sale_service_id',
  'name',
  'quantity',
  'price',
  'vat_class_id',
  'vat_percentage',
  'chosen',
  'position',
  'created_at',
  'updated_at',
] as const;

/** The groups and lines of a quote as rows (new ids), and the totals stored beside them. */
export interface QuoteContent {
  groups: unknown[][];
  lines: unknown[][];
  totals: StoredTotals;
  grandTotals: { excl: string; vat: string; incl: string };
}

/**
 * The groups and lines of a quote written from the input, refusing choices the group rules
 * forbid, with the totals computed from them (the one totals function). Nothing is written yet.
 */
export async function quoteContent(
  w: SqlWriteContext,
  quoteId: string,
  saleId: string,
  groups: ServiceGroupInput[],
): Promise<QuoteContent> {
  const lines = await resolveGroups(w.sql, saleId, groups);
  const totalsInput: TotalsGroup[] = groups.map((g, n) => ({ type: g.type, lines: lines[n] ?? [] }));
  const violations = choiceViolations(totalsInput);
  if (violations.length) throw new ValidationError(violations);
  const totals = computeQuoteTotals(totalsInput);
  const stored: StoredTotals = { groups: {}, grandTotals: stripLines(totals.grandTotals) };
  const content: QuoteContent = { groups: [], lines: [], totals: stored, grandTotals: totals.grandTotals };
  for (const [n, group] of groups.entries()) {
    const groupId = newEntityId('quoteservicegroup');
    content.groups.push([groupId, quoteId, group.name, group.type, n, w.now, w.now]);
    for (const [position, l] of (lines[n] ?? []).entries()) {
      content.lines.push([
        newEntityId('quoteline'),
        quoteId,
        groupId,
        l.saleServiceId,
        l.name,
        String(l.quantity),
        String(l.price),
        l.vatClassId,
        l.vatPercentage,
        l.chosen,
        position,
        w.now,
        w.now,
      ]);
    }
    const t = totals.groups[n];
    if (t) stored.groups[groupId] = stripLines(t);
  }
  return content;
}

/** The quote's groups and lines (queued; the quote's row is written before them). */
export async function insertQuoteContent(sql: TenantReader, content: QuoteContent): Promise<void> {
  await insertRows(sql, 'quote_service_group', GROUP_COLUMNS, content.groups);
  await insertRows(sql, 'quote_line', LINE_COLUMNS, content.lines);
}

/** The columns of the totals stored on the quote's row. */
export function totalsColumns(content: QuoteContent): Record<string, unknown> {
  return {
    totals: JSON.stringify(content.totals),
    total_excl: content.grandTotals.excl,
    total_vat: content.grandTotals.vat,
    total_incl: content.grandTotals.incl,
  };
}

/**
 * Replaces the groups and lines of a quote (its lines go with their groups, by cascade) and
 * stores the totals computed from them.
 */
export async function writeServiceGroups(w: SqlWriteContext, quoteId: string, saleId: string, groups: ServiceGroupInput[]) {
  const content = await quoteContent(w, quoteId, saleId, groups);
  await w.sql.queue('DELETE FROM quote_service_group WHERE environment_id = $1 AND quote_id = $2', [quoteId], {
    stablePlan: true,
  });
  await insertQuoteContent(w.sql, content);
  await w.sql.update('quote', quoteId, { ...totalsColumns(content), updated_at: w.now });
}

function stripLines<T extends { excl: string; vat: string; incl: string; vatByClass: unknown[] }>(t: T) {
  return { excl: t.excl, vat: t.vat, incl: t.incl, vatByClass: t.vatByClass as StoredTotals['grandTotals']['vatByClass'] };
}

/** Only a draft's groups and lines may change: a sent quote is what the customer saw. */
export function assertDraft(statusKey: string, path = 'serviceGroups') {
  if (statusKey !== 'draft') {
    throw new BusinessRuleError(`${path}: the services of a ${statusKey} quote can no longer change; only a draft's can`);
  }
}

/**
 * The quote number of a new quote of the environment: Q-<year>-<n>, one above the year's highest,
 * made by PostgreSQL in the statement that inserts the quote (`numberSql` with the year's pattern
 * as `$k`). The year's numbers are drawn one transaction at a time: this queues an advisory lock
 * keyed by the environment and the year, held until the drawing transaction ends, and the
 * inserting statement, which comes after it, reads the highest number after the lock (each
 * statement of a transaction at read committed sees what committed before it began): two quotes
 * created at once never share a number.
 */
export async function lockQuoteNumbers(w: SqlWriteContext): Promise<string> {
  const year = w.now.getUTCFullYear();
  await w.sql.queue(`SELECT 1 AS locked FROM pg_advisory_xact_lock(hashtextextended($1 || ':quote-number:' || $2, 0))`, [
    String(year),
  ]);
  return `Q-${year}-`;
}

/**
 * The next number of the year whose prefix (`Q-<year>-`) is bound as `$k` (see lockQuoteNumbers):
 * at least four digits, as many as it takes past 9999.
 */
export const nextQuoteNumberSql = (k: number) =>
  `(SELECT $${k}::text || lpad(next.n::text, greatest(4, length(next.n::text)), '0')
      FROM (SELECT coalesce(max(substring(q.quote_number FROM '^Q-[0-9]{4}-([0-9]+)$')::int), 0) + 1 AS n
              FROM quote q WHERE q.environment_id = $1 AND q.quote_number LIKE $${k}::text || '%') AS next)`;
