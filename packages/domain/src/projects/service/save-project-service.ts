import { SCOPED_ENVIRONMENT } from '@bo/db';
import { COST_TYPE_PREFIX } from '../../costs/coststype/coststype.resource.js';
import { HOUR_TYPE_PREFIX } from '../../hours/hourstype/hourstype.resource.js';
import { BusinessRuleError, NotFoundError, ValidationError, type Violation } from '../../shared/errors.js';
import { idPrefix, newEntityId, uuidv7 } from '../../shared/ids.js';
import { num } from '../../shared/numbers.js';
import { assertReferencesExist } from '../../shared/references.js';
import type { Db, WriteContext } from '../../shared/resources/definition.js';
import { resolveBillable } from './billable.js';
import { DEFAULT_SUBSCRIPTION_CYCLE, type InvoiceMethod, type SubscriptionCycle } from './invoice-method.js';
import { loadProjectService, type ProjectServiceRow, type ServiceKind } from './project-service.row.js';

/** One hour type or cost type line of a write, with where it sits in the request (for violations). */
export interface TypeLineInput {
  /** e.g. `hour_types.0` (v2) or `costTypes.1` (v3) */
  path: string;
  /** the property holding the type id in that request: `hourtype_id`, `hourTypeId`, … */
  idField: string;
  typeId: string;
  /** the id prefixes this property accepts */
  accepts: readonly string[];
  tariff?: number | null;
  budgetedAmount?: number | null;
  purchaseTariff?: number | null;
  billable?: boolean | null;
}

export interface InstallmentInput {
  name: string;
  percentage?: number | null;
  price?: number | null;
  expirationDate?: Date | null;
}

/** A create or an edit of a project service in the domain's words; undefined leaves a field as it is. */
export interface ProjectServiceWrite {
  projectId?: string;
  defaultServiceId?: string | null;
  name?: string;
  explanation?: string | null;
  invoiceMethod?: InvoiceMethod;
  subscriptionCycle?: SubscriptionCycle | null;
  amount?: number | null;
  price?: number | null;
  trackHours?: boolean;
  trackCost?: boolean;
  startDate?: Date | null;
  endDate?: Date | null;
  writeHoursStartDate?: Date | null;
  writeHoursEndDate?: Date | null;
  expectedInvoiceDate?: Date | null;
  vatClassId?: string | null;
  revenueGroupId?: string | null;
  useInResourcePlanner?: boolean;
  invoiceInInstallments?: boolean;
  installments?: InstallmentInput[];
  /** hour and cost type lines; undefined keeps the service's lines (contract, 2025-02) */
  lines?: TypeLineInput[];
}

/** How each wire names the top-level properties a rule may point at. */
export interface FieldNames {
  projectId: string;
  defaultServiceId: string;
  invoiceMethod: string;
  name: string;
}

export const V2_FIELDS: FieldNames = {
  projectId: 'project_id',
  defaultServiceId: 'default_service_id',
  invoiceMethod: 'invoice_method',
  name: 'name',
};
export const V3_FIELDS: FieldNames = {
  projectId: 'projectId',
  defaultServiceId: 'defaultServiceId',
  invoiceMethod: 'invoiceMethod',
  name: 'name',
};

const PREFIX_TABLE: Record<string, string> = { [HOUR_TYPE_PREFIX]: 'hour_type', [COST_TYPE_PREFIX]: 'cost_type' };

/** Why a service may no longer be edited, or null when it may: invoiced, or its project is closed. */
export function editRefusal(s: ProjectServiceRow): string | null {
  if (s.status === 'invoiced') return `project service ${s.id} has been invoiced and may no longer be edited`;
  if (s.project.projectStatus?.isClosed) {
    return `the project of service ${s.id} is closed (${s.project.projectStatus.label}); its services may no longer be edited`;
  }
  return null;
}

/**
 * Loads a service for an edit through a command of one kind: missing → NotFound
 * (or the given error), another kind or a service that may no longer be edited → 422.
 */
export async function serviceForEdit(
  tx: Db,
  id: string,
  kind: ServiceKind,
  missing: () => Error = () => new NotFoundError('projectservice', id),
): Promise<ProjectServiceRow> {
  const row = await loadProjectService(tx, id);
  if (!row) throw missing();
  if (row.kind !== kind) throw new BusinessRuleError(`project service ${id} is an ${row.kind} service, not an ${kind} service`);
  const refusal = editRefusal(row);
  if (refusal) throw new BusinessRuleError(refusal);
  return row;
}

function checkLinePrefixes(lines: TypeLineInput[]): Violation[] {
  const violations: Violation[] = [];
  const seen = new Set<string>();
  for (const line of lines) {
    const prefix = idPrefix(line.typeId);
    const path = `${line.path}.${line.idField}`;
    if (!prefix || !line.accepts.includes(prefix)) {
      const refused = prefix === 'projecthourtype' ? '; a project hour type id is refused' : '';
      violations.push({
        path,
        message: `Only ids with the prefix ${line.accepts.join(' or ')} are accepted${refused}.`,
        code: 'invalid_prefix',
      });
    } else if (seen.has(line.typeId)) {
      violations.push({ path, message: `${line.typeId} appears more than once.`, code: 'duplicate' });
    }
    seen.add(line.typeId);
  }
  return violations;
}

/**
 * The one place a project service is created or changed, whichever wire or
 * command asks: ids, references, the billable rule, the subscription cycle,
 * installments, then the rows. Answers the service id.
 */
export async function saveProjectService(
  { ctx, tx, now }: WriteContext,
  target: { kind: ServiceKind; existing?: ProjectServiceRow },
  input: ProjectServiceWrite,
  names: FieldNames,
): Promise<string> {
  const existing = target.existing;
  const env = ctx.principal.environmentId;
  const lines = input.lines;

  const prefixViolations = checkLinePrefixes(lines ?? []);
  if (prefixViolations.length) throw new ValidationError(prefixViolations);
  await assertReferencesExist(tx, env, [
    { path: names.projectId, table: 'project', id: existing ? undefined : input.projectId },
    { path: names.defaultServiceId, table: 'default_service', id: input.defaultServiceId },
    ...(lines ?? []).map((l) => ({
      path: `${l.path}.${l.idField}`,
      table: PREFIX_TABLE[idPrefix(l.typeId) ?? ''] ?? 'hour_type',
      id: l.typeId,
    })),
  ]);

  const projectId = existing?.projectId ?? input.projectId;
  if (!projectId) throw new ValidationError([{ path: names.projectId, message: 'This value is required.', code: 'required' }]);
  const project = await tx.project.findUniqueOrThrow({ where: { id: projectId }, include: { projectStatus: true } });
  if (!existing && project.projectStatus?.isClosed) {
    throw new BusinessRuleError(`project ${projectId} is closed (${project.projectStatus.label}); no services can be added`);
  }

  const method: InvoiceMethod = input.invoiceMethod ?? (existing?.invoiceMethod as InvoiceMethod | undefined) ?? 'fixed_price';
  const internal = !project.billable || target.kind === 'acquisition';
  const violations: Violation[] = [];

  // billable of every line follows the invoice method; lines left out keep theirs, and must still fit
  const billableOf = new Map<TypeLineInput, boolean>();
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
        const label = 'hourType' in line ? line.hourType.label : line.costType.label;
        violations.push({
          path: names.invoiceMethod,
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
    defaultServiceId: input.defaultServiceId,
    name: input.name,
    explanation: input.explanation,
    invoiceMethod: method,
    subscriptionCycle,
    amount: input.amount,
    price: input.price,
    trackHours: input.trackHours,
    trackCost: input.trackCost,
    startDate: input.startDate,
    endDate: input.endDate,
    writeHoursStartDate: input.writeHoursStartDate,
    writeHoursEndDate: input.writeHoursEndDate,
    expectedInvoiceDate: input.expectedInvoiceDate,
    vatClassId: input.vatClassId,
    revenueGroupId: input.revenueGroupId,
    useInResourcePlanner: input.useInResourcePlanner,
    invoiceInInstallments: inInstallments,
  };

  // new services get a UUID v7 id; an existing service keeps the id it has, whatever its form
  const id = existing?.id ?? uuidv7(now.getTime());
  if (existing) {
    await tx.projectService.update({ where: { id }, data: { ...columns, updatedAt: now } });
  } else {
    await tx.projectService.create({
      data: {
        ...columns,
        id,
        environmentId: SCOPED_ENVIRONMENT,
        projectId,
        kind: target.kind,
        phase: target.kind === 'acquisition' && project.phase === 'acquisition' ? 'acquisition' : 'execution',
        name: input.name ?? '',
      },
    });
  }
  if (lines) await writeLines(tx, id, lines, billableOf);
  if (input.installments !== undefined || !inInstallments)
    await writeInstallments(tx, id, inInstallments ? (input.installments ?? []) : []);
  return id;
}

async function writeLines(tx: Db, serviceId: string, lines: TypeLineInput[], billableOf: Map<TypeLineInput, boolean>) {
  const hourLines = lines.filter((l) => idPrefix(l.typeId) === HOUR_TYPE_PREFIX);
  const costLines = lines.filter((l) => idPrefix(l.typeId) === COST_TYPE_PREFIX);
  const hourTypes = new Map(
    (await tx.hourType.findMany({ where: { id: { in: hourLines.map((l) => l.typeId) } } })).map((h) => [h.id, h]),
  );
  const costTypes = new Map(
    (await tx.costType.findMany({ where: { id: { in: costLines.map((l) => l.typeId) } } })).map((c) => [c.id, c]),
  );

  // hour type lines are kept by hour type, so assignments planned on them survive an edit
  const current = await tx.projectServiceHourType.findMany({ where: { projectServiceId: serviceId } });
  const byType = new Map(current.map((r) => [r.hourTypeId, r]));
  const keep = new Set(hourLines.map((l) => l.typeId));
  const stale = current.filter((r) => !keep.has(r.hourTypeId)).map((r) => r.id);
  if (stale.length) await tx.projectServiceHourType.deleteMany({ where: { id: { in: stale } } });
  for (const [position, line] of hourLines.entries()) {
    const values = {
      tariff: line.tariff !== undefined ? line.tariff : num(hourTypes.get(line.typeId)?.tariff),
      budgetedAmount: line.budgetedAmount ?? null,
      billable: billableOf.get(line) ?? false,
      position,
    };
    const row = byType.get(line.typeId);
    if (row) await tx.projectServiceHourType.update({ where: { id: row.id }, data: values });
    else {
      await tx.projectServiceHourType.create({
        data: {
          ...values,
          id: newEntityId('projecthourtype'),
          environmentId: SCOPED_ENVIRONMENT,
          projectServiceId: serviceId,
          hourTypeId: line.typeId,
        },
      });
    }
  }

  await tx.projectServiceCostType.deleteMany({ where: { projectServiceId: serviceId } });
  if (costLines.length) {
    await tx.projectServiceCostType.createMany({
      data: costLines.map((line, position) => ({
        id: newEntityId('projectcosttype'),
        environmentId: SCOPED_ENVIRONMENT,
        projectServiceId: serviceId,
        costTypeId: line.typeId,
        tariff: line.tariff !== undefined ? line.tariff : num(costTypes.get(line.typeId)?.tariff),
        purchaseTariff: line.purchaseTariff ?? null,
        budgetedAmount: line.budgetedAmount ?? null,
        billable: billableOf.get(line) ?? false,
        position,
      })),
    });
  }
}

async function writeInstallments(tx: Db, serviceId: string, installments: InstallmentInput[]) {
  await tx.projectServiceInstallment.deleteMany({ where: { projectServiceId: serviceId, status: 'open' } });
  if (!installments.length) return;
  await tx.projectServiceInstallment.createMany({
    data: installments.map((i, position) => ({
      id: newEntityId('installment'),
      environmentId: SCOPED_ENVIRONMENT,
      projectServiceId: serviceId,
      name: i.name,
      percentage: i.percentage ?? null,
      price: i.price ?? null,
      expirationDate: i.expirationDate ?? null,
      position,
    })),
  });
}
