import { z } from 'zod';
import { spentShape, spentSql } from './budget.js';
import { costType, costTypeShape } from '../../costs/coststype/coststype.entity.js';
import { hourType, hourTypeShape } from '../../hours/hourstype/hourstype.entity.js';
import { defineEntity, f, type TargetEntity } from '../../shared/entity/index.js';
import { project } from '../project/project.entity.js';
import { projectReference } from '../project/project.shapes.js';
import { installmentShape, serviceCostTypeShape, serviceHourTypeShape } from './project-service.shapes.js';
import { targets } from '../../shared/entity/targets.js';

/** An hour type on a service, with its tariff, budget and whether it is billed. */
export const serviceHourType = defineEntity({
  type: 'projecthourtype',
  table: 'project_service_hour_type',
  module: 'projects',
  defaultSort: [{ path: 'position', dir: 'asc' }],
  fields: {
    id: f.id(),
    projectServiceId: f.requiredString(),
    hourType: f.ref((): TargetEntity => hourType, hourTypeShape, { column: 'hour_type_id' }),
    budgetedAmount: f.decimal(),
    tariff: f.decimal(),
    billable: f.boolean(),
    position: f.requiredInteger(),
  },
});

/** A cost type on a service. */
export const serviceCostType = defineEntity({
  type: 'projectcosttype',
  table: 'project_service_cost_type',
  module: 'projects',
  defaultSort: [{ path: 'position', dir: 'asc' }],
  fields: {
    id: f.id(),
    projectServiceId: f.requiredString(),
    costType: f.ref((): TargetEntity => costType, costTypeShape, { column: 'cost_type_id' }),
    budgetedAmount: f.decimal(),
    tariff: f.decimal(),
    purchaseTariff: f.decimal(),
    purchaseMargin: f.decimal(),
    billable: f.boolean(),
    position: f.requiredInteger(),
  },
});

/** One installment of a service invoiced in installments. */
export const installment = defineEntity({
  type: 'installment',
  table: 'project_service_installment',
  module: 'projects',
  defaultSort: [{ path: 'position', dir: 'asc' }],
  fields: {
    id: f.id(),
    projectServiceId: f.requiredString(),
    name: f.requiredString(),
    percentage: f.decimal(),
    price: f.decimal(),
    expirationDate: f.date(),
    status: f.requiredString(),
    invoiceId: f.string({ references: () => targets.invoice }),
    position: f.requiredInteger(),
  },
});

/** What invoices (not drafts) have billed of a service. */
const invoicedSql = (t: string) =>
  `COALESCE((SELECT sum(il.amount) FROM invoice_line il JOIN invoice i ON i.id = il.invoice_id
     WHERE il.project_service_id = ${t}.id AND il.environment_id = ${t}.environment_id AND i.status <> 'draft'), 0)::float8`;

const byPosition = (a: string) => `${a}.position, ${a}.id`;

/**
 * A service of a project: invoiceable (fixed price, hours or subscription), an
 * acquisition (the work of winning the project, never billed) or an advance.
 */
export const projectService = defineEntity({
  type: 'projectservice',
  table: 'project_service',
  module: 'projects',
  fields: {
    id: f.id(),
    projectId: f.requiredString({ references: () => targets.project }),
    project: f.ref((): TargetEntity => project, projectReference, { column: 'project_id', writable: false }),
    defaultServiceId: f.string({ references: () => targets.defaultService }),
    /** invoiceable, acquisition or advance */
    kind: f.requiredString(),
    /** acquisition until the project is approved, then execution */
    phase: f.requiredString(),
    name: f.requiredString(),
    explanation: f.string(),
    /** fixed_price, time_and_expenses or subscription */
    invoiceMethod: f.requiredString(),
    subscriptionCycle: f.string(),
    amount: f.decimal(),
    price: f.decimal(),
    trackHours: f.boolean(),
    trackCost: f.boolean(),
    startDate: f.date(),
    endDate: f.date(),
    writeHoursStartDate: f.date(),
    writeHoursEndDate: f.date(),
    expectedInvoiceDate: f.date(),
    vatClassId: f.string({ references: () => targets.vatClass }),
    revenueGroupId: f.string({ references: () => targets.revenueGroup }),
    useInResourcePlanner: f.boolean(),
    invoiceInInstallments: f.boolean(),
    /** open or invoiced */
    status: f.requiredString(),
    serviceNumber: f.string(),
    hourTypes: f.many(() => serviceHourType, serviceHourTypeShape, {
      remote: 'project_service_id',
      orderBy: byPosition,
      filter: false,
    }),
    costTypes: f.many(() => serviceCostType, serviceCostTypeShape, {
      remote: 'project_service_id',
      orderBy: byPosition,
      filter: false,
    }),
    installments: f.many(() => installment, installmentShape, {
      remote: 'project_service_id',
      orderBy: byPosition,
      filter: false,
    }),
    invoicedAmount: f.computed('decimal', z.number(), invoicedSql),
    /** hours × tariff and costs booked on the service (issue 10) */
    spent: f.computed('json', spentShape, spentSql),
    createdAt: f.createdAt(),
    updatedAt: f.updatedAt(),
  },
});
export type ProjectService = z.infer<typeof projectService.schema>;
export type ServiceKind = 'invoiceable' | 'acquisition' | 'advance';
