import { SCOPED_ENVIRONMENT } from '@bo/db';
import type { EntityTransaction, ReferenceCheck, WriteContext } from '../../shared/entity/index.js';
import { BusinessRuleError, ValidationError } from '../../shared/errors.js';
import { newEntityId } from '../../shared/ids.js';
import { type QuoteFlowStep, quoteStatus, quoteTemplate, vatClass } from '../lookups/lookups.entity.js';
import { sale } from '../sale.entity.js';
import { saleService } from '../service/sale-service.entity.js';
import type { StoredTotals } from './quote.entity.js';
import type { ServiceGroupInput, UpdateQuoteInput } from './quote.schema.js';
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

export async function statusByKey(tx: EntityTransaction, key: QuoteFlowStep) {
  const status = await tx.quoteStatus.findFirst({ where: { key } });
  if (!status) throw new Error(`the environment has no quote status ${key}`);
  return status;
}

/** Moves a quote to a step of its flow; a step that may not follow the current one is refused. */
export async function moveQuote(w: WriteContext, quoteId: string, to: QuoteFlowStep, path = 'quoteStatusId') {
  const current = await w.tx.quote.findFirstOrThrow({ where: { id: quoteId }, select: { quoteStatusId: true } });
  const from = await w.tx.quoteStatus.findFirstOrThrow({ where: { id: current.quoteStatusId } });
  if (from.key === to) return;
  if (!(NEXT[from.key as QuoteFlowStep] ?? []).includes(to)) {
    throw new ValidationError([
      {
        path,
        message: `a ${from.key} quote cannot become ${to} (flow: draft → sent → accepted or rejected)`,
        code: 'quote_flow',
      },
    ]);
  }
  const status = await statusByKey(w.tx, to);
  await w.tx.quote.update({
    where: { id: quoteId },
    data: { quoteStatusId: status.id, ...(to === 'sent' ? { sentAt: w.now } : {}), updatedAt: w.now },
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

/** The lines of the groups with the sale services' defaults filled in and the VAT classes' percentages. */
async function resolveGroups(w: WriteContext, saleId: string, groups: ServiceGroupInput[]): Promise<ResolvedLine[][]> {
  const serviceIds = groups.flatMap((g) => g.services.map((s) => s.saleServiceId)).filter((x): x is string => !!x);
  const services = new Map(
    (await w.tx.saleService.findMany({ where: { id: { in: serviceIds } } })).map((s) => [s.id, s] as const),
  );
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
  const lines = groups.map((g) =>
    g.services.map((s) => {
      const service = s.saleServiceId ? services.get(s.saleServiceId) : undefined;
      return {
        saleServiceId: s.saleServiceId ?? null,
        name: s.name ?? service?.name ?? '',
        quantity: s.quantity ?? service?.amount?.toString() ?? 1,
        price: s.price ?? service?.price?.toString() ?? 0,
        vatClassId: s.vatClassId !== undefined ? s.vatClassId : (service?.vatClassId ?? null),
        vatPercentage: '0',
        chosen: s.chosen ?? false,
      };
    }),
  );
  const classIds = [...new Set(lines.flat().map((l) => l.vatClassId))].filter((x): x is string => !!x);
  const classes = new Map(
    (await w.tx.vatClass.findMany({ where: { id: { in: classIds } } })).map((c) => [c.id, c.percentage.toString()]),
  );
  for (const l of lines.flat()) l.vatPercentage = l.vatClassId ? (classes.get(l.vatClassId) ?? '0') : '0';
  return lines;
}

/**
 * Replaces the groups and lines of a quote, refusing choices the group rules forbid,
 * and stores the totals computed from them (the one totals function).
 */
export async function writeServiceGroups(w: WriteContext, quoteId: string, saleId: string, groups: ServiceGroupInput[]) {
  const lines = await resolveGroups(w, saleId, groups);
  const totalsInput: TotalsGroup[] = groups.map((g, n) => ({ type: g.type, lines: lines[n] ?? [] }));
  const violations = choiceViolations(totalsInput);
  if (violations.length) throw new ValidationError(violations);
  const totals = computeQuoteTotals(totalsInput);

  await w.tx.quoteServiceGroup.deleteMany({ where: { quoteId } });
  const stored: StoredTotals = { groups: {}, grandTotals: stripLines(totals.grandTotals) };
  for (const [n, group] of groups.entries()) {
    const groupId = newEntityId('quoteservicegroup');
    await w.tx.quoteServiceGroup.create({
      data: {
        id: groupId,
        environmentId: SCOPED_ENVIRONMENT,
        quoteId,
        name: group.name,
        type: group.type,
        position: n,
        createdAt: w.now,
        updatedAt: w.now,
      },
    });
    const groupLines = lines[n] ?? [];
    if (groupLines.length) {
      await w.tx.quoteLine.createMany({
        data: groupLines.map((l, position) => ({
          id: newEntityId('quoteline'),
          environmentId: SCOPED_ENVIRONMENT,
          quoteId,
          groupId,
          saleServiceId: l.saleServiceId,
          name: l.name,
          quantity: String(l.quantity),
          price: String(l.price),
          vatClassId: l.vatClassId,
          vatPercentage: l.vatPercentage,
          chosen: l.chosen,
          position,
          createdAt: w.now,
          updatedAt: w.now,
        })),
      });
    }
    const t = totals.groups[n];
    if (t) stored.groups[groupId] = stripLines(t);
  }
  await w.tx.quote.update({
    where: { id: quoteId },
    data: {
      totals: stored,
      totalExcl: totals.grandTotals.excl,
      totalVat: totals.grandTotals.vat,
      totalIncl: totals.grandTotals.incl,
      updatedAt: w.now,
    },
  });
}

function stripLines<T extends { excl: string; vat: string; incl: string; vatByClass: unknown[] }>(t: T) {
  return { excl: t.excl, vat: t.vat, incl: t.incl, vatByClass: t.vatByClass as StoredTotals['grandTotals']['vatByClass'] };
}

/** Only a draft's groups and lines may change: a sent quote is what the customer saw. */
export async function assertDraft(w: WriteContext, quoteId: string, path = 'serviceGroups') {
  const q = await w.tx.quote.findFirstOrThrow({ where: { id: quoteId }, select: { quoteStatusId: true } });
  const status = await w.tx.quoteStatus.findFirstOrThrow({ where: { id: q.quoteStatusId } });
  if (status.key !== 'draft') {
    throw new BusinessRuleError(`${path}: the services of a ${status.key} quote can no longer change; only a draft's can`);
  }
}

/**
 * The next quote number of the environment: Q-<year>-<n>, one above the year's highest.
 * The year's numbers are drawn one transaction at a time (an advisory lock keyed by the
 * environment and the year, held until the drawing transaction ends), and the highest is
 * read after the lock: two quotes created at once never share a number.
 */
export async function nextQuoteNumber(w: WriteContext): Promise<string> {
  const year = w.now.getUTCFullYear();
  await w.sql.read(`SELECT 1 AS locked FROM pg_advisory_xact_lock(hashtextextended($1 || ':quote-number:' || $2, 0))`, [
    String(year),
  ]);
  const [row] = await w.sql.read<{ n: number }>(
    `SELECT coalesce(max(substring(quote_number FROM '^Q-[0-9]{4}-([0-9]+)$')::int), 0)::int AS n
       FROM quote WHERE environment_id = $1 AND quote_number LIKE $2`,
    [`Q-${year}-%`],
  );
  return `Q-${year}-${String((row?.n ?? 0) + 1).padStart(4, '0')}`;
}
