import { SCOPED_ENVIRONMENT } from '@bo/db';
import { COST_TYPE_PREFIX, costType } from '../../costs/coststype/coststype.entity.js';
import { HOUR_TYPE_PREFIX, hourType } from '../../hours/hourstype/hourstype.entity.js';
import { defaultService } from '../../services/defaultservice/defaultservice.entity.js';
import { assertReferences, type EntityTransaction, type WriteContext } from '../../shared/entity/index.js';
import { BusinessRuleError, NotFoundError, ValidationError, type Violation } from '../../shared/errors.js';
import { idPrefix, newEntityId, uuidv7 } from '../../shared/ids.js';
import { project } from '../project/project.entity.js';
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

const include = {
  project: { include: { projectStatus: true } },
  hourTypes: { include: { hourType: true }, orderBy: { position: 'asc' } },
  costTypes: { include: { costType: true }, orderBy: { position: 'asc' } },
} as const;

/** A service as its write rules see it: its project and status, and its current lines. */
export async function serviceForWrite(tx: EntityTransaction, id: string) {
  return tx.projectService.findFirst({ where: { id }, include });
}
export type ServiceForWrite = NonNullable<Awaited<ReturnType<typeof serviceForWrite>>>;

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
  tx: EntityTransaction,
  id: string,
  kind: ServiceKind,
  missing: () => Error = () => new NotFoundError('projectservice', id),
): Promise<ServiceForWrite> {
  const row = await serviceForWrite(tx, id);
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

const num = (d: { toNumber(): number } | null) => (d === null ? null : d.toNumber());

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
      tariff: num(l.tariff),
      budgetedAmount: num(l.budgetedAmount),
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
      tariff: num(l.tariff),
      purchaseTariff: num(l.purchaseTariff),
      budgetedAmount: num(l.budgetedAmount),
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
  { tx, sql, now }: WriteContext,
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
  const owner = await tx.project.findUniqueOrThrow({ where: { id: projectId }, include: { projectStatus: true } });
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
        const label = 'hourType' in line ? line.hourType.label : line.costType.label;
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
        phase: target.kind === 'acquisition' && owner.phase === 'acquisition' ? 'acquisition' : 'execution',
        name: input.name ?? '',
      },
    });
  }
  if (lines) await writeLines(tx, id, lines, billableOf);
  if (input.installments !== undefined || !inInstallments)
    await writeInstallments(tx, id, inInstallments ? (input.installments ?? []) : []);
  return id;
}

async function writeLines(tx: EntityTransaction, serviceId: string, lines: TypeLine[], billableOf: Map<TypeLine, boolean>) {
  const hourLines = lines.filter((l) => l.accepts === HOUR_TYPE_PREFIX);
  const costLines = lines.filter((l) => l.accepts === COST_TYPE_PREFIX);
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
    const typeTariff = hourTypes.get(line.typeId)?.tariff ?? null;
    const values = {
      tariff: line.tariff !== undefined ? line.tariff : num(typeTariff),
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
        tariff: line.tariff !== undefined ? line.tariff : num(costTypes.get(line.typeId)?.tariff ?? null),
        purchaseTariff: line.purchaseTariff ?? null,
        budgetedAmount: line.budgetedAmount ?? null,
        billable: billableOf.get(line) ?? false,
        position,
      })),
    });
  }
}

async function writeInstallments(tx: EntityTransaction, serviceId: string, installments: InstallmentInput[]) {
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
