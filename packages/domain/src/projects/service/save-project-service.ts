import type { TenantReader } from '@bo/db';
import { COST_TYPE_PREFIX, costType } from '../../costs/coststype/coststype.entity.js';
import { HOUR_TYPE_PREFIX, hourType } from '../../hours/hourstype/hourstype.entity.js';
import { defaultService } from '../../services/defaultservice/defaultservice.entity.js';
import { assertReferences, type SqlWriteContext } from '../../shared/entity/index.js';
import { BusinessRuleError, NotFoundError, ValidationError, type Violation } from '../../shared/errors.js';
import { idPrefix, newEntityId, uuidv7 } from '../../shared/ids.js';
import { project } from '../project/project.entity.js';
import { dateText, optionalDateText } from '../sql-writes.js';
import { resolveBillable } from './billable.js';
import { DEFAULT_SUBSCRIPTION_CYCLE, type InvoiceMethod, type SubscriptionCycle } from './invoice-method.js';
import type { ServiceKind } from './project-service.entity.js';
import type {
  CostTypeLineInput,
  CreateProjectServiceInput,
  HourTypeLineInput,
  InstallmentInput,
} from './project-service.schema.js';

/** A create or an edit of a project service in the domain's words; undefined leaves a field as it is. */
export type ProjectServiceWrite = Partial<CreateProjectServiceInput>;

/** One hour or cost type line of a write, with its domain path (for violations). */
interface TypeLine {
  /** `hourTypes.0` or `costTypes.1` */
  path: string;
  /** `hourTypeId` or `costTypeId` */
  idField: 'hourTypeId' | 'costTypeId';
  typeId: string;
  /** the id prefix the list accepts */
  accepts: string;
  tariff?: number | null;
  budgetedAmount?: number | null;
  purchaseTariff?: number | null;
  billable?: boolean | null;
}

/** The project a service belongs to, as the service's write rules see it. */
export interface ServiceOwner {
  billable: boolean;
  phase: string;
  /** its status, when it has one */
  projectStatus: { label: string; isClosed: boolean } | null;
}

/** A service as its write rules see it: its project and status, and its current lines (in their order). */
export interface ServiceForWrite {
  id: string;
  projectId: string;
  kind: string;
  phase: string;
  status: string;
  invoiceMethod: string;
  subscriptionCycle: string | null;
  invoiceInInstallments: boolean;
  project: ServiceOwner;
  hourTypes: { hourTypeId: string; label: string; tariff: number | null; budgetedAmount: number | null; billable: boolean }[];
  costTypes: {
    costTypeId: string;
    label: string;
    tariff: number | null;
    purchaseTariff: number | null;
    budgetedAmount: number | null;
    billable: boolean;
  }[];
}

/** The project and its status, in a select list over `p` (project) and `ps` (its status, left joined). */
const OWNER = `json_build_object('billable', p.billable, 'phase', p.phase, 'projectStatus',
  CASE WHEN ps.id IS NULL THEN NULL ELSE json_build_object('label', ps.label, 'isClosed', ps.is_closed) END)`;

/**
 * A service as its write rules see it, in one statement: its project and status and its current
 * lines. The generic update and delete have locked the service's row; its project is read, not locked.
 */
export async function serviceForWrite(sql: TenantReader, id: string): Promise<ServiceForWrite | null> {
  const [row] = await sql.read<ServiceForWrite>(
    `SELECT s.id, s.project_id AS "projectId", s.kind, s.phase, s.status, s.invoice_method AS "invoiceMethod",
            s.subscription_cycle AS "subscriptionCycle", s.invoice_in_installments AS "invoiceInInstallments",
            ${OWNER} AS project,
            COALESCE((SELECT json_agg(json_build_object('hourTypeId', l.hour_type_id, 'label', h.label,
                                                        'tariff', l.tariff::float8, 'budgetedAmount', l.budgeted_amount::float8,
                                                        'billable', l.billable) ORDER BY l.position, l.id)
                        FROM project_service_hour_type l JOIN hour_type h ON h.environment_id = $1 AND h.id = l.hour_type_id
                       WHERE l.environment_id = $1 AND l.project_service_id = s.id), '[]'::json) AS "hourTypes",
            COALESCE((SELECT json_agg(json_build_object('costTypeId', l.cost_type_id, 'label', c.label,
                                                        'tariff', l.tariff::float8, 'purchaseTariff', l.purchase_tariff::float8,
                                                        'budgetedAmount', l.budgeted_amount::float8,
                                                        'billable', l.billable) ORDER BY l.position, l.id)
                        FROM project_service_cost_type l JOIN cost_type c ON c.environment_id = $1 AND c.id = l.cost_type_id
                       WHERE l.environment_id = $1 AND l.project_service_id = s.id), '[]'::json) AS "costTypes"
       FROM project_service s
       JOIN project p ON p.environment_id = $1 AND p.id = s.project_id
       LEFT JOIN project_status ps ON ps.environment_id = $1 AND ps.id = p.project_status_id
      WHERE s.environment_id = $1 AND s.id = $2`,
    [id],
  );
  return row ?? null;
}

/** The project a new service goes on, with its status; null when there is none. */
async function ownerOf(sql: TenantReader, projectId: string): Promise<ServiceOwner | null> {
  const [row] = await sql.read<{ owner: ServiceOwner }>(
    `SELECT ${OWNER} AS owner
       FROM project p LEFT JOIN project_status ps ON ps.environment_id = $1 AND ps.id = p.project_status_id
      WHERE p.environment_id = $1 AND p.id = $2`,
    [projectId],
  );
  return row?.owner ?? null;
}

/** Why a service may no longer be edited, or null when it may: invoiced, or its project is closed. */
export function editRefusal(s: ServiceForWrite): string | null {
  if (s.status === 'invoiced') return `project service ${s.id} has been invoiced and may no longer be edited`;
  if (s.project.projectStatus?.isClosed) {
    return `the project of service ${s.id} is closed (${s.project.projectStatus.label}); its services may no longer be edited`;
  }
  return null;
}

/**
 * Loads a service for an edit of one kind: missing → NotFound (or the given error),
 * another kind or a service that may no longer be edited → 422.
 */
export async function serviceForEdit(
  sql: TenantReader,
  id: string,
  kind: ServiceKind,
  missing: () => Error = () => new NotFoundError('projectservice', id),
): Promise<ServiceForWrite> {
  const row = await serviceForWrite(sql, id);
  if (!row) throw missing();
  if (row.kind !== kind) throw new BusinessRuleError(`project service ${id} is an ${row.kind} service, not an ${kind} service`);
  const refusal = editRefusal(row);
  if (refusal) throw new BusinessRuleError(refusal);
  return row;
}

/** The message of a type id with a prefix the property does not accept. */
export function prefixMessage(accepts: readonly string[], typeId: string): string {
  const refused = idPrefix(typeId) === 'projecthourtype' ? '; a project hour type id is refused' : '';
  return `Only ids with the prefix ${accepts.join(' or ')} are accepted${refused}.`;
}

function checkLinePrefixes(lines: TypeLine[]): Violation[] {
  const violations: Violation[] = [];
  const seen = new Set<string>();
  for (const line of lines) {
    const path = `${line.path}.${line.idField}`;
    if (idPrefix(line.typeId) !== line.accepts) {
      violations.push({ path, message: prefixMessage([line.accepts], line.typeId), code: 'invalid_prefix' });
    } else if (seen.has(line.typeId)) {
      violations.push({ path, message: `${line.typeId} appears more than once.`, code: 'duplicate' });
    }
    seen.add(line.typeId);
  }
  return violations;
}

/** The lines of a write; a kind left out keeps the service's current lines of that kind (which must still fit). */
function typeLines(
  hourTypes: HourTypeLineInput[] | undefined,
  costTypes: CostTypeLineInput[] | undefined,
  existing: ServiceForWrite | undefined,
): TypeLine[] | undefined {
  if (hourTypes === undefined && costTypes === undefined) return undefined;
  const hours: TypeLine[] = (
    hourTypes ??
    (existing?.hourTypes ?? []).map((l) => ({
      hourTypeId: l.hourTypeId,
      tariff: l.tariff,
      budgetedAmount: l.budgetedAmount,
      billable: l.billable,
    }))
  ).map((l, i) => ({
    path: `hourTypes.${i}`,
    idField: 'hourTypeId',
    typeId: l.hourTypeId,
    accepts: HOUR_TYPE_PREFIX,
    tariff: l.tariff,
    budgetedAmount: l.budgetedAmount,
    billable: l.billable,
  }));
  const costs: TypeLine[] = (
    costTypes ??
    (existing?.costTypes ?? []).map((l) => ({
      costTypeId: l.costTypeId,
      tariff: l.tariff,
      purchaseTariff: l.purchaseTariff,
      budgetedAmount: l.budgetedAmount,
      billable: l.billable,
    }))
  ).map((l, i) => ({
    path: `costTypes.${i}`,
    idField: 'costTypeId',
    typeId: l.costTypeId,
    accepts: COST_TYPE_PREFIX,
    tariff: l.tariff,
    purchaseTariff: l.purchaseTariff,
    budgetedAmount: l.budgetedAmount,
    billable: l.billable,
  }));
  return [...hours, ...costs];
}

/**
 * The one place a project service is created or changed, whichever wire or
 * command asks: ids, references, the billable rule, the subscription cycle,
 * installments, then the rows. Answers the service id.
 */
export async function saveProjectService(
  { sql, now }: SqlWriteContext,
  target: { kind: ServiceKind; existing?: ServiceForWrite },
  input: ProjectServiceWrite,
): Promise<string> {
  const existing = target.existing;
  const lines = typeLines(input.hourTypes, input.costTypes, existing);

  const prefixViolations = checkLinePrefixes(lines ?? []);
  if (prefixViolations.length) throw new ValidationError(prefixViolations);
  await assertReferences(sql, [
    { path: 'projectId', target: project, id: existing ? undefined : input.projectId },
    { path: 'defaultServiceId', target: defaultService, id: input.defaultServiceId },
    ...(lines ?? []).map((l) => ({
      path: `${l.path}.${l.idField}`,
      target: l.accepts === COST_TYPE_PREFIX ? costType : hourType,
      id: l.typeId,
    })),
  ]);

  const projectId = existing?.projectId ?? input.projectId;
  if (!projectId) throw new ValidationError([{ path: 'projectId', message: 'This value is required.', code: 'required' }]);
  // an existing service has read its project with it; a new one reads the project checked above
  const owner = existing?.project ?? (await ownerOf(sql, projectId));
  if (!owner) throw new NotFoundError('project', projectId);
  if (!existing && owner.projectStatus?.isClosed) {
    throw new BusinessRuleError(`project ${projectId} is closed (${owner.projectStatus.label}); no services can be added`);
  }

  const method: InvoiceMethod = input.invoiceMethod ?? (existing?.invoiceMethod as InvoiceMethod | undefined) ?? 'fixed_price';
  const internal = !owner.billable || target.kind === 'acquisition';
  const violations: Violation[] = [];

  // billable of every line follows the invoice method; lines left out keep theirs, and must still fit
  const billableOf = new Map<TypeLine, boolean>();
  if (lines) {
    for (const line of lines) {
      const outcome = resolveBillable(method, internal, line.billable);
      if (outcome.ok) billableOf.set(line, outcome.value);
      else violations.push({ path: `${line.path}.billable`, message: outcome.message, code: outcome.code });
    }
  } else if (existing) {
    for (const line of [...existing.hourTypes, ...existing.costTypes]) {
      const outcome = resolveBillable(method, internal, line.billable);
      if (!outcome.ok || outcome.value !== line.billable) {
        const { label } = line;
        violations.push({
          path: 'invoiceMethod',
          message: `The edit would leave "${label}" with billable ${line.billable}, which this invoice method does not allow; send the hour types too.`,
          code: 'billable_mismatch',
        });
      }
    }
  }
  if (violations.length) throw new ValidationError(violations);

  const inInstallments = input.invoiceInInstallments ?? existing?.invoiceInInstallments ?? false;
  if (inInstallments && method !== 'fixed_price') {
    throw new BusinessRuleError(
      'An invoice in installments requires the fixed-price invoice method (FixedFee); time-and-expenses (Hours) and subscriptions are refused.',
    );
  }

  // a subscription is billed per cycle, monthly unless said otherwise; other methods have no cycle
  const subscriptionCycle =
    method === 'subscription'
      ? (input.subscriptionCycle ?? (existing?.subscriptionCycle as SubscriptionCycle | null) ?? DEFAULT_SUBSCRIPTION_CYCLE)
      : null;

  const columns = {
    default_service_id: input.defaultServiceId,
    name: input.name,
    explanation: input.explanation,
    invoice_method: method,
    subscription_cycle: subscriptionCycle,
    amount: input.amount,
    price: input.price,
    track_hours: input.trackHours,
    track_cost: input.trackCost,
    start_date: optionalDateText(input.startDate),
    end_date: optionalDateText(input.endDate),
    write_hours_start_date: optionalDateText(input.writeHoursStartDate),
    write_hours_end_date: optionalDateText(input.writeHoursEndDate),
    expected_invoice_date: optionalDateText(input.expectedInvoiceDate),
    vat_class_id: input.vatClassId,
    revenue_group_id: input.revenueGroupId,
    use_in_resource_planner: input.useInResourcePlanner,
    invoice_in_installments: inInstallments,
  };

  // new services get a UUID v7 id; an existing service keeps the id it has, whatever its form
  const id = existing?.id ?? uuidv7(now.getTime());
  // the row, its lines and installments are queued: they go with the event and the COMMIT
  if (existing) {
    await sql.update('project_service', id, { ...columns, updated_at: now });
  } else {
    await sql.insert('project_service', {
      ...columns,
      id,
      project_id: projectId,
      kind: target.kind,
      phase: target.kind === 'acquisition' && owner.phase === 'acquisition' ? 'acquisition' : 'execution',
      name: input.name ?? '',
      updated_at: now,
    });
  }
  if (lines) await writeLines(sql, id, lines, billableOf);
  if (input.installments !== undefined || !inInstallments)
    await writeInstallments(sql, id, inInstallments ? (input.installments ?? []) : []);
  return id;
}

/**
 * The lines of a write become the service's lines, one statement per kind. A line without a
 * tariff of its own (left out, not null) takes its type's. Hour type lines are kept by hour
 * type, so assignments planned on them survive an edit: the others go, the named ones are
 * changed or come; cost type lines are replaced.
 */
async function writeLines(sql: TenantReader, serviceId: string, lines: TypeLine[], billableOf: Map<TypeLine, boolean>) {
  const hourLines = lines.filter((l) => l.accepts === HOUR_TYPE_PREFIX);
  const costLines = lines.filter((l) => l.accepts === COST_TYPE_PREFIX);
  const hours = hourLines.map((line, position) => ({
    id: newEntityId('projecthourtype'),
    hour_type_id: line.typeId,
    tariff_given: line.tariff !== undefined,
    tariff: line.tariff ?? null,
    budgeted_amount: line.budgetedAmount ?? null,
    billable: billableOf.get(line) ?? false,
    position,
  }));
  await sql.queue(
    `WITH given AS (
       SELECT g.* FROM json_to_recordset($3::json)
         AS g(id text, hour_type_id text, tariff_given boolean, tariff numeric, budgeted_amount numeric, billable boolean, position int)),
     typed AS (
       SELECT g.*, CASE WHEN g.tariff_given THEN g.tariff ELSE h.tariff END AS line_tariff
         FROM given g LEFT JOIN hour_type h ON h.environment_id = $1 AND h.id = g.hour_type_id),
     gone AS (
       DELETE FROM project_service_hour_type l
        WHERE l.environment_id = $1 AND l.project_service_id = $2
          AND NOT EXISTS (SELECT 1 FROM given g WHERE g.hour_type_id = l.hour_type_id)),
     kept AS (
       UPDATE project_service_hour_type l
          SET tariff = t.line_tariff, budgeted_amount = t.budgeted_amount, billable = t.billable, position = t.position
         FROM typed t
        WHERE l.environment_id = $1 AND l.project_service_id = $2 AND l.hour_type_id = t.hour_type_id)
     INSERT INTO project_service_hour_type (environment_id, id, project_service_id, hour_type_id, tariff, budgeted_amount,
                                            billable, position)
     SELECT $1, t.id, $2, t.hour_type_id, t.line_tariff, t.budgeted_amount, t.billable, t.position
       FROM typed t
      WHERE NOT EXISTS (SELECT 1 FROM project_service_hour_type l
                         WHERE l.environment_id = $1 AND l.project_service_id = $2 AND l.hour_type_id = t.hour_type_id)`,
    [serviceId, JSON.stringify(hours)],
  );

  const costs = costLines.map((line, position) => ({
    id: newEntityId('projectcosttype'),
    cost_type_id: line.typeId,
    tariff_given: line.tariff !== undefined,
    tariff: line.tariff ?? null,
    purchase_tariff: line.purchaseTariff ?? null,
    budgeted_amount: line.budgetedAmount ?? null,
    billable: billableOf.get(line) ?? false,
    position,
  }));
  await sql.queue(
    `WITH gone AS (DELETE FROM project_service_cost_type WHERE environment_id = $1 AND project_service_id = $2)
     INSERT INTO project_service_cost_type (environment_id, id, project_service_id, cost_type_id, tariff, purchase_tariff,
                                            budgeted_amount, billable, position)
     SELECT $1, g.id, $2, g.cost_type_id, CASE WHEN g.tariff_given THEN g.tariff ELSE c.tariff END, g.purchase_tariff,
            g.budgeted_amount, g.billable, g.position
       FROM json_to_recordset($3::json) AS g(id text, cost_type_id text, tariff_given boolean, tariff numeric,
                                              purchase_tariff numeric, budgeted_amount numeric, billable boolean, position int)
       LEFT JOIN cost_type c ON c.environment_id = $1 AND c.id = g.cost_type_id`,
    [serviceId, JSON.stringify(costs)],
  );
}

/** The open installments are replaced by the ones given (invoiced ones stay): one statement. */
async function writeInstallments(sql: TenantReader, serviceId: string, installments: InstallmentInput[]) {
  const rows = installments.map((i, position) => ({
    id: newEntityId('installment'),
    name: i.name,
    percentage: i.percentage ?? null,
    price: i.price ?? null,
    expiration_date: i.expirationDate ? dateText(i.expirationDate) : null,
    position,
  }));
  await sql.queue(
    `WITH gone AS (
       DELETE FROM project_service_installment WHERE environment_id = $1 AND project_service_id = $2 AND status = 'open')
     INSERT INTO project_service_installment (environment_id, id, project_service_id, name, percentage, price,
                                              expiration_date, position)
     SELECT $1, g.id, $2, g.name, g.percentage, g.price, g.expiration_date, g.position
       FROM json_to_recordset($3::json)
         AS g(id text, name text, percentage numeric, price numeric, expiration_date date, position int)`,
    [serviceId, JSON.stringify(rows)],
  );
}
