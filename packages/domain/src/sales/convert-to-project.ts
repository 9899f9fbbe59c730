import { columnsOf } from '../shared/entity/columns.js';
import { inSqlWrite, recordChange, type SqlWriteContext } from '../shared/entity/index.js';
import { BusinessRuleError, ConflictError, ForbiddenError, NotFoundError } from '../shared/errors.js';
import { recordEvent } from '../shared/events.js';
import { newEntityId, uuidv7 } from '../shared/ids.js';
import { hasRight } from '../shared/rights.js';
import { quote as quoteEntity } from './quote/quote.entity.js';
import { countedLines } from './quote/quote-totals.js';
import { sale } from './sale.entity.js';
import { COST_LINE_COLUMNS, costLineCopy, type ServiceLines, serviceLinesSql } from './service/sale-service.write.js';
import { decimalJson, insertRows } from './sql-writes.js';

/** The sale service a quote line names, as a project service is made from it. */
interface LineService extends ServiceLines {
  defaultServiceId: string | null;
  explanation: string | null;
  invoiceMethod: string;
  subscriptionCycle: string | null;
  trackHours: boolean;
  trackCost: boolean;
  revenueGroupId: string | null;
}

interface AcceptedQuote {
  id: string;
  quoteNumber: string;
  quoteSubject: string | null;
  projectId: string | null;
  groups: {
    type: string;
    lines: {
      name: string;
      quantity: string;
      price: string;
      vatClassId: string | null;
      chosen: boolean;
      service: LineService | null;
    }[];
  }[];
}

/**
 * The quote with its groups and lines in their order, each line with the sale service it names
 * (its hour and cost types too); only while the quote is still the sale's and accepted.
 */
const ACCEPTED_QUOTE_SQL = `
  SELECT q.id, q.quote_number AS "quoteNumber", q.quote_subject AS "quoteSubject", q.project_id AS "projectId",
         coalesce((SELECT json_agg(json_build_object('type', g.type, 'lines', coalesce((
                     SELECT json_agg(json_build_object('name', l.name, 'quantity', l.quantity::text, 'price', l.price::text,
                              'vatClassId', l.vat_class_id, 'chosen', l.chosen,
                              'service', (SELECT row_to_json(v) FROM (
                                 SELECT s.default_service_id AS "defaultServiceId", s.explanation,
                                        s.invoice_method AS "invoiceMethod", s.subscription_cycle AS "subscriptionCycle",
                                        s.track_hours AS "trackHours", s.track_cost AS "trackCost",
                                        s.revenue_group_id AS "revenueGroupId", ${serviceLinesSql('s')}
                                   FROM sale_service s WHERE s.environment_id = $1 AND s.id = l.sale_service_id) AS v))
                            ORDER BY l.position, l.id)
                       FROM quote_line l WHERE l.environment_id = $1 AND l.group_id = g.id), '[]'))
                     ORDER BY g.position, g.id)
                     FROM quote_service_group g WHERE g.environment_id = $1 AND g.quote_id = q.id), '[]') AS groups
    FROM quote q
    JOIN quote_status st ON st.environment_id = $1 AND st.id = q.quote_status_id AND st.key = 'accepted'
   WHERE q.environment_id = $1 AND q.id = $2 AND q.sale_id = $3`;

/**
 * The sale's accepted quote, latest first, locked; converting needs one. The caller holds
 * the sale's lock; the quote's own row lock is taken before its state is read, the lock
 * that its acceptance, its edits and its deletion take too (a quote's writes lock the
 * quote, then nothing of the sale: no cycle). A quote deleted while this waited is not
 * converted: the next accepted one is looked for, or none is left.
 */
async function acceptedQuote(w: SqlWriteContext, saleId: string): Promise<AcceptedQuote> {
  // each turn reads anew: a quote found gone is not found again (bounded all the same)
  for (let turn = 0; turn < 10; turn++) {
    const [candidate] = await w.sql.read<{ id: string }>(
      `SELECT q.id FROM quote q
         JOIN quote_status st ON st.environment_id = $1 AND st.id = q.quote_status_id AND st.key = 'accepted'
        WHERE q.environment_id = $1 AND q.sale_id = $2
        ORDER BY q.updated_at DESC, q.id DESC LIMIT 1`,
      [saleId],
    );
    if (!candidate) break;
    if (!(await w.sql.lockForUpdate('quote', candidate.id))) continue;
    // read after the lock, in a statement of its own: the state as the last writer of this quote left it
    const [found] = await w.sql.read<AcceptedQuote>(ACCEPTED_QUOTE_SQL, [candidate.id, saleId]);
    if (!found) continue;
    if (found.projectId) throw new ConflictError(`quote ${found.quoteNumber} was converted already, into ${found.projectId}`);
    return found;
  }
  throw new BusinessRuleError('id: the sale has no accepted quote; a sale is converted from its accepted quote');
}

interface SaleToConvert {
  subject: string;
  organizationId: string | null;
  personId: string | null;
  contactId: string | null;
  myOrganizationProfileId: string | null;
  /** the first open project status, for the new project */
  projectStatusId: string | null;
}

const PROJECT_SERVICE_COLUMNS = [
  'id',
  'project_id',
  'default_service_id',
  'kind',
  'phase',
  'name',
  'explanation',
  'invoice_method',
  'subscription_cycle',
  'amount',
  'price',
  'track_hours',
  'track_cost',
  'vat_class_id',
  'revenue_group_id',
  'use_in_resource_planner',
  'invoice_in_installments',
  'status',
  'created_at',
  'updated_at',
];

/**
 * Converts a sale into a project (v2 GET sales/converttoproject/{id}, v3
 * sale.convertToProject): in one transaction the project is created for the sale's
 * relation, a project service for every counted line of the accepted quote (with the
 * sale service's invoice method, VAT class, revenue group and hour types), the
 * project is linked to the sale (its linkedProjects show it) and the quote remembers
 * it. Events: project.created, projectservice.created for each service, quote and
 * sale updated. The projects area's rows are written here, through the transaction's reader;
 * their events carry the rows as stored, by the names of their columns' fields.
 */
export async function convertSaleToProject(
  ctx: Parameters<typeof inSqlWrite>[0],
  saleId: string,
): Promise<{ id: string; projectId: string }> {
  // the project and its services are the projects module's: creating them needs its write right too
  if (!hasRight(ctx.principal.rights, 'projects', 'write')) {
    throw new ForbiddenError('converting a sale creates a project: it needs the projects write right');
  }
  return inSqlWrite(ctx, async (w) => {
    const { sql, now } = w;
    // the sale's row lock (the one its edits and its deletion take), and its relation as it is after the lock
    const [source] = await sql.read<SaleToConvert>(
      `SELECT s.subject, s.organization_id AS "organizationId", s.person_id AS "personId", s.contact_id AS "contactId",
              s.my_organization_profile_id AS "myOrganizationProfileId",
              (SELECT p.id FROM project_status p WHERE p.environment_id = $1 AND NOT p.is_closed
                ORDER BY p.position, p.id LIMIT 1) AS "projectStatusId"
         FROM sale s WHERE s.environment_id = $1 AND s.id = $2 FOR UPDATE OF s`,
      [saleId],
    );
    if (!source) throw new NotFoundError('sale', saleId);
    const quote = await acceptedQuote(w, saleId);

    const projectId = newEntityId('project');
    const project = {
      id: projectId,
      name: quote.quoteSubject ?? source.subject,
      projectNumber: null,
      organizationId: source.organizationId,
      personId: source.personId,
      billable: true,
      contactId: source.contactId,
      myOrganizationProfileId: source.myOrganizationProfileId,
      projectManagerId: null,
      projectStatusId: source.projectStatusId,
      note: null,
      startDate: null,
      endDate: null,
      invoiceReference: null,
      canRegisterMileage: false,
      phase: 'execution',
    };
    // every column its event shows, so that the row and its event agree
    await sql.insert('project', columnsOf({ ...project, createdAt: now, updatedAt: now }));
    await recordEvent(sql, {
      entityType: 'project',
      entityId: projectId,
      change: 'created',
      data: storedRow(sql.environmentId, project, now),
    });

    const services: unknown[][] = [];
    const hourTypes: unknown[][] = [];
    const costTypes: unknown[][] = [];
    const payloads: Record<string, unknown>[] = [];
    for (const group of quote.groups) {
      const counted = countedLines({
        type: group.type as 'all_included',
        lines: group.lines.map((l) => ({ quantity: 0, price: 0, vatClassId: null, vatPercentage: 0, chosen: l.chosen })),
      });
      for (const [i, line] of group.lines.entries()) {
        if (!counted[i]) continue;
        const from = line.service;
        const id = uuidv7(now.getTime());
        const service = {
          id,
          projectId,
          defaultServiceId: from?.defaultServiceId ?? null,
          kind: 'invoiceable',
          phase: 'execution',
          name: line.name,
          explanation: from?.explanation ?? null,
          invoiceMethod: from?.invoiceMethod ?? 'fixed_price',
          subscriptionCycle: from?.subscriptionCycle ?? null,
          amount: line.quantity,
          price: line.price,
          trackHours: from?.trackHours ?? true,
          trackCost: from?.trackCost ?? true,
          vatClassId: line.vatClassId,
          revenueGroupId: from?.revenueGroupId ?? null,
          useInResourcePlanner: false,
          invoiceInInstallments: false,
          status: 'open',
        };
        const columns = columnsOf({ ...service, createdAt: now, updatedAt: now });
        services.push(PROJECT_SERVICE_COLUMNS.map((c) => columns[c]));
        payloads.push({
          ...service,
          amount: decimalJson(service.amount),
          price: decimalJson(service.price),
          startDate: null,
          endDate: null,
          writeHoursStartDate: null,
          writeHoursEndDate: null,
          expectedInvoiceDate: null,
          serviceNumber: null,
        });
        for (const h of from?.hourTypes ?? []) {
          hourTypes.push([newEntityId('projecthourtype'), id, h.hourTypeId, h.budgetedAmount, h.tariff, h.billable, h.position]);
        }
        for (const c of from?.costTypes ?? []) costTypes.push([newEntityId('projectcosttype'), id, ...costLineCopy(c)]);
      }
    }
    await insertRows(sql, 'project_service', PROJECT_SERVICE_COLUMNS, services);
    await insertRows(
      sql,
      'project_service_hour_type',
      ['id', 'project_service_id', 'hour_type_id', 'budgeted_amount', 'tariff', 'billable', 'position'],
      hourTypes,
    );
    await insertRows(sql, 'project_service_cost_type', ['id', 'project_service_id', ...COST_LINE_COLUMNS], costTypes);
    for (const payload of payloads) {
      await recordEvent(sql, {
        entityType: 'projectservice',
        entityId: payload.id as string,
        change: 'created',
        data: storedRow(sql.environmentId, payload, now),
      });
    }

    // the link comes after the sale's others: created_at steps by a millisecond per link already there
    await sql.queue(
      `INSERT INTO sale_project (environment_id, sale_id, project_id, created_at)
       SELECT $1, $2, $3, $4::timestamptz + count(*) * interval '1 millisecond'
         FROM sale_project WHERE environment_id = $1 AND sale_id = $2`,
      [saleId, projectId, now],
    );
    await sql.update('quote', quote.id, { project_id: projectId, updated_at: now });
    await sql.update('sale', saleId, { updated_at: now });
    await recordChange(w, quoteEntity, quote.id, 'updated', false);
    await recordChange(w, sale, saleId, 'updated', false);
    return { id: saleId, projectId };
  });
}

/**
 * A project's or project service's event payload as it has always been: the row as stored, by its
 * fields' names (the environment's id and the write's time included), decimals as their shortest text.
 */
function storedRow(environmentId: string, values: Record<string, unknown>, now: Date): Record<string, unknown> {
  const at = now.toISOString();
  return { ...values, environmentId, createdAt: at, updatedAt: at };
}
