import type { Project } from '@bo/domain/projects/project/project.entity';
import { type Budget, projectBudget, serviceBudget } from '@bo/domain/projects/service/budget';
import type { AdvanceServiceConfiguration as AdvanceConfiguration } from '@bo/domain/projects/service/commands/advance-service-configuration';
import type { BuiltService as Built } from '@bo/domain/projects/service/commands/build-project-service';
import { INVOICE_METHODS, SUBSCRIPTION_CYCLES } from '@bo/domain/projects/service/invoice-method';
import {
  buildProjectServiceInput,
  createAcquisitionServiceInput,
  createAdvanceServiceInput,
  createProjectServiceInput,
  updateAcquisitionServiceInput,
  updateAdvanceServiceInput,
  updateProjectServiceInput,
} from '@bo/domain/projects/service/project-service.schema';
import type { ProjectService } from '@bo/domain/projects/service/project-service.entity';
import { z } from 'zod';
import { commandEndpoint, getEndpoint, type NamedSchema, queryEndpoint } from './types.js';

/**
 * v3 shapes of project services (names from the contract, fields ours, camelCase). The requests
 * are the domain's inputs as a JSON body takes them (see jsonRequest); v3 names nothing apart.
 */
const calendarDate = z.iso.date().transform((s) => new Date(`${s}T00:00:00.000Z`));
const BLANK = 'This value should not be blank.';

/**
 * A domain input as v3 takes it: every object strict (an unknown property is refused, so only
 * valid data is stored), a date a calendar date (a JSON body carries no Date), a blank text
 * refused with the contract's words. Lists keep their bounds, fields their types.
 */
function jsonRequest<S extends z.ZodType>(schema: S): S {
  const def = (schema as unknown as { _zod: { def: Record<string, unknown> & { type: string } } })._zod.def;
  switch (def.type) {
    case 'object': {
      const shape = (schema as unknown as z.ZodObject).shape;
      return z.strictObject(Object.fromEntries(Object.entries(shape).map(([k, v]) => [k, jsonRequest(v)]))) as unknown as S;
    }
    case 'optional':
      return jsonRequest(def.innerType as z.ZodType).optional() as unknown as S;
    case 'nullable':
      return jsonRequest(def.innerType as z.ZodType).nullable() as unknown as S;
    case 'array':
      return (schema as unknown as z.ZodArray).clone({
        ...(def as unknown as z.ZodArray['def']),
        element: jsonRequest(def.element as z.ZodType),
      }) as unknown as S;
    case 'union':
      // the domain's calendar date: a Date, or its text
      if ((def.options as z.ZodType[]).some((o) => o instanceof z.ZodDate)) return calendarDate as unknown as S;
      return schema;
    case 'string': {
      type Check = { _zod: { def: { check: string; minimum?: number } } };
      const checks = (def.checks ?? []) as Check[];
      const blank = (c: Check) => c._zod.def.check === 'min_length' && c._zod.def.minimum === 1;
      if (!checks.some(blank)) return schema;
      // a text that may not be empty: a blank one is refused in the contract's words
      const kept = (schema as unknown as z.ZodString).clone({
        ...(def as unknown as z.ZodString['def']),
        checks: checks.filter((c) => !blank(c)) as never,
      });
      return kept.min(1, BLANK) as unknown as S;
    }
    default:
      return schema;
  }
}

const CreateProjectService = jsonRequest(
  createProjectServiceInput.extend({ invoiceMethod: z.enum(INVOICE_METHODS) /* required in v3 */ }),
);
const EditProjectService = jsonRequest(updateProjectServiceInput.extend({ id: z.string().min(1) }));
const CreateAcquisitionProjectService = jsonRequest(createAcquisitionServiceInput);
const EditAcquisitionProjectService = jsonRequest(updateAcquisitionServiceInput.extend({ id: z.string().min(1) }));
const CreateAdvanceProjectService = jsonRequest(createAdvanceServiceInput);
const EditAdvanceProjectService = jsonRequest(updateAdvanceServiceInput.extend({ id: z.string().min(1) }));
const BuildProjectService = jsonRequest(buildProjectServiceInput);
const BuildProjectAcquisitionService = jsonRequest(buildProjectServiceInput);

// ---- responses ----
const nullableString = z.string().nullable();
const nullableNumber = z.number().nullable();
const isoDate = z.iso.date().nullable();
const isoDateTime = z.iso.datetime();

const ServiceHourType = z.object({
  id: z.string().meta({ description: 'the line id (prefix projecthourtype:); never accepted as an hour type id' }),
  hourTypeId: z.string(),
  label: z.string(),
  tariff: nullableNumber,
  budgetedAmount: nullableNumber,
  billable: z.boolean(),
});
const ServiceCostType = z.object({
  id: z.string(),
  costTypeId: z.string(),
  label: z.string(),
  tariff: nullableNumber,
  purchaseTariff: nullableNumber,
  budgetedAmount: nullableNumber,
  billable: z.boolean(),
});
const BudgetOutput = z.object({
  hours: z.object({ amountBudget: z.number(), amountSpent: z.number(), valueBudget: z.number(), valueSpent: z.number() }),
  costs: z.object({ valueBudget: z.number(), valueSpent: z.number() }),
  total: z.object({ valueBudget: z.number(), valueSpent: z.number(), valueInvoiced: z.number() }),
});

const common = {
  id: z.string().meta({ description: 'UUID v7 for services created by this service; older ids keep their form' }),
  projectId: z.string(),
  defaultServiceId: nullableString,
  name: z.string(),
  explanation: nullableString,
  status: z.enum(['open', 'invoiced']),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
};

const InvoiceableService = z.object({
  ...common,
  kind: z.literal('invoiceable'),
  invoiceMethod: z.enum(INVOICE_METHODS),
  subscriptionCycle: z.enum(SUBSCRIPTION_CYCLES).nullable(),
  price: nullableNumber,
  amount: nullableNumber,
  trackHours: z.boolean(),
  trackCost: z.boolean(),
  startDate: isoDate,
  endDate: isoDate,
  writeHoursStartDate: isoDate,
  writeHoursEndDate: isoDate,
  expectedInvoiceDate: isoDate,
  vatClassId: nullableString,
  revenueGroupId: nullableString,
  useInResourcePlanner: z.boolean(),
  invoiceInInstallments: z.boolean(),
  installments: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      percentage: nullableNumber,
      price: nullableNumber,
      expirationDate: isoDate,
      status: z.enum(['open', 'invoiced']),
    }),
  ),
  hourTypes: z.array(ServiceHourType),
  costTypes: z.array(ServiceCostType),
  budget: BudgetOutput,
});

const AcquisitionService = z.object({
  ...common,
  kind: z.literal('acquisition'),
  phase: z.enum(['acquisition', 'execution']).meta({ description: 'execution once the project is approved' }),
  startDate: isoDate,
  endDate: isoDate,
  hourTypes: z.array(ServiceHourType),
  budget: BudgetOutput,
});

const AdvanceService = z.object({
  ...common,
  kind: z.literal('advance'),
  price: nullableNumber,
  expectedInvoiceDate: isoDate,
  vatClassId: nullableString,
  revenueGroupId: nullableString,
});

const AdvanceServiceConfiguration = z.object({
  name: z.string().meta({ description: 'name an advance service gets when the request names none' }),
  defaultServiceId: nullableString,
  invoiceMethod: z.literal('fixed_price'),
  vatClassId: nullableString,
  revenueGroupId: nullableString,
});

const BuiltService = z.object({
  kind: z.enum(['invoiceable', 'acquisition']),
  projectId: z.string(),
  defaultServiceId: z.string(),
  name: z.string(),
  explanation: nullableString,
  invoiceMethod: z.enum(INVOICE_METHODS).nullable().meta({ description: 'null for an acquisition service' }),
  subscriptionCycle: z.enum(SUBSCRIPTION_CYCLES).nullable(),
  price: nullableNumber,
  trackHours: z.boolean(),
  trackCost: z.boolean(),
  vatClassId: nullableString,
  revenueGroupId: nullableString,
  hourTypes: z.array(ServiceHourType.omit({ id: true })),
  costTypes: z.array(ServiceCostType.omit({ id: true })),
});

/** v3 Project.ProjectOutput (project.get, project.acquisition.approve). */
const ProjectOutput = z.object({
  id: z.string(),
  name: z.string(),
  projectNumber: z.string().nullable(),
  phase: z.enum(['acquisition', 'execution']),
  billable: z.boolean(),
  organizationId: z.string().nullable(),
  personId: z.string().nullable(),
  contactId: z.string().nullable(),
  projectManager: z.object({ id: z.string(), name: z.string() }).nullable(),
  projectStatus: z.object({ id: z.string(), label: z.string(), color: z.string().nullable(), isClosed: z.boolean() }).nullable(),
  note: z.string().nullable(),
  startDate: z.iso.date().nullable(),
  endDate: z.iso.date().nullable(),
  invoiceReference: z.string().nullable(),
  canRegisterMileage: z.boolean(),
  employees: z.array(z.object({ id: z.string(), employeeId: z.string(), name: z.string(), tariff: z.number().nullable() })),
  services: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      kind: z.enum(['invoiceable', 'acquisition', 'advance']),
      status: z.enum(['open', 'invoiced']),
    }),
  ),
  budget: BudgetOutput,
  customFields: z.array(z.object({ name: z.string(), value: z.string().nullable() })).meta({
    description: 'every project custom field, with its value or null',
  }),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
const ApproveAcquisitionProject = z.object({ projectId: z.string().min(1).max(200) }).strict();

const named = <S extends z.ZodType>(name: string, schema: S): NamedSchema => ({ name, schema });

const projectOutput = named('Project.ProjectOutput', ProjectOutput);
const invoiceableOutput = named('Project.InvoiceableService', InvoiceableService);
const acquisitionOutput = named('Project.AcquisitionService', AcquisitionService);
const advanceOutput = named('Project.AdvanceService', AdvanceService);
const builtOutput = named('Project.BuiltService', BuiltService);

const iso = (d: Date) => d.toISOString();
type Row = ProjectService;

function budgetV3(b: Budget): z.infer<typeof BudgetOutput> {
  return b;
}

export function projectV3(p: Project): z.infer<typeof ProjectOutput> {
  return {
    id: p.id,
    name: p.name,
    projectNumber: p.projectNumber,
    phase: p.phase as 'acquisition' | 'execution',
    billable: p.billable,
    organizationId: p.organization?.id ?? null,
    personId: p.person?.id ?? null,
    contactId: p.contactId,
    projectManager: p.projectManager ? { id: p.projectManager.id, name: p.projectManager.name ?? '' } : null,
    projectStatus: p.projectStatus
      ? { id: p.projectStatus.id, label: p.projectStatus.label, color: p.projectStatus.color, isClosed: p.projectStatus.isClosed }
      : null,
    note: p.note,
    startDate: p.startDate,
    endDate: p.endDate,
    invoiceReference: p.invoiceReference,
    canRegisterMileage: p.canRegisterMileage,
    employees: p.employees.map((e) => ({ id: e.id, employeeId: e.employeeId, name: e.employee?.name ?? '', tariff: e.tariff })),
    services: p.services.map((s) => ({
      id: s.id,
      name: s.name,
      kind: s.kind as 'invoiceable' | 'acquisition' | 'advance',
      status: s.status as 'open' | 'invoiced',
    })),
    budget: budgetV3(projectBudget(p)),
    customFields: p.customFields.map((f) => ({ name: f.name, value: f.value })),
    createdAt: iso(p.createdAt),
    updatedAt: iso(p.updatedAt),
  };
}

function commonV3(s: Row) {
  return {
    id: s.id,
    projectId: s.projectId,
    defaultServiceId: s.defaultServiceId,
    name: s.name,
    explanation: s.explanation,
    status: s.status as 'open' | 'invoiced',
    createdAt: iso(s.createdAt),
    updatedAt: iso(s.updatedAt),
  };
}

function hourTypesV3(s: Row): z.infer<typeof ServiceHourType>[] {
  return s.hourTypes.map((h) => ({
    id: h.id,
    hourTypeId: h.hourType?.id ?? '',
    label: h.hourType?.label ?? '',
    tariff: h.tariff,
    budgetedAmount: h.budgetedAmount,
    billable: h.billable,
  }));
}

export function invoiceableServiceV3(s: Row): z.infer<typeof InvoiceableService> {
  // added onto the common part (Object.assign), not spread with it: V8 gives `{ ...x, k1, … }`
  // no cached shape, and each such object is many times dearer (apps/api-v2 v2-names.ts)
  return Object.assign(commonV3(s), {
    kind: 'invoiceable' as const,
    invoiceMethod: s.invoiceMethod as z.infer<typeof InvoiceableService>['invoiceMethod'],
    subscriptionCycle: s.subscriptionCycle as z.infer<typeof InvoiceableService>['subscriptionCycle'],
    price: s.price,
    amount: s.amount,
    trackHours: s.trackHours,
    trackCost: s.trackCost,
    startDate: s.startDate,
    endDate: s.endDate,
    writeHoursStartDate: s.writeHoursStartDate,
    writeHoursEndDate: s.writeHoursEndDate,
    expectedInvoiceDate: s.expectedInvoiceDate,
    vatClassId: s.vatClassId,
    revenueGroupId: s.revenueGroupId,
    useInResourcePlanner: s.useInResourcePlanner,
    invoiceInInstallments: s.invoiceInInstallments,
    installments: s.installments.map((i) => ({
      id: i.id,
      name: i.name,
      percentage: i.percentage,
      price: i.price,
      expirationDate: i.expirationDate,
      status: i.status as 'open' | 'invoiced',
    })),
    hourTypes: hourTypesV3(s),
    costTypes: s.costTypes.map((c) => ({
      id: c.id,
      costTypeId: c.costType?.id ?? '',
      label: c.costType?.label ?? '',
      tariff: c.tariff,
      purchaseTariff: c.purchaseTariff,
      budgetedAmount: c.budgetedAmount,
      billable: c.billable,
    })),
    budget: budgetV3(serviceBudget(s)),
  });
}

export function acquisitionServiceV3(s: Row): z.infer<typeof AcquisitionService> {
  return Object.assign(commonV3(s), {
    kind: 'acquisition' as const,
    phase: s.phase as 'acquisition' | 'execution',
    startDate: s.startDate,
    endDate: s.endDate,
    hourTypes: hourTypesV3(s),
    budget: budgetV3(serviceBudget(s)),
  });
}

export function advanceServiceV3(s: Row): z.infer<typeof AdvanceService> {
  return Object.assign(commonV3(s), {
    kind: 'advance' as const,
    price: s.price,
    expectedInvoiceDate: s.expectedInvoiceDate,
    vatClassId: s.vatClassId,
    revenueGroupId: s.revenueGroupId,
  });
}

/** projectService.get shows each service in the shape of its kind. */
export function projectServiceV3(s: Row) {
  if (s.kind === 'acquisition') return acquisitionServiceV3(s);
  if (s.kind === 'advance') return advanceServiceV3(s);
  return invoiceableServiceV3(s);
}

const builtV3 = (b: Built): z.infer<typeof BuiltService> => b;
const configurationV3 = (c: AdvanceConfiguration): z.infer<typeof AdvanceServiceConfiguration> => c;

/** An edit command's body: the service's id beside the fields it changes. */
const edit = <T extends { id: string }>({ id, ...data }: T) => ({ id, data });
const create = <T>(data: T) => ({ data });

/** Projects and their services (issue 4). */
export const projectEndpoints = {
  'project.get': getEndpoint<Project>({
    call: (c) => c.projects.project.get,
    map: projectV3,
    doc: { summary: 'One project', response: projectOutput, errors: [403, 404] },
  }),
  'project.acquisition.approve': commandEndpoint({
    call: (c) => c.projects.acquisition.approve,
    map: projectV3,
    status: 200,
    doc: {
      summary: 'Moves an acquisition project and its acquisition services into execution',
      request: named('Project.Acquisition.Approve', ApproveAcquisitionProject),
      response: projectOutput,
      errors: [400, 403, 404, 422],
    },
  }),
  'projectService.get': getEndpoint<Row>({
    call: (c) => c.projects.service.get,
    map: projectServiceV3,
    doc: { summary: 'One project service, in the shape of its kind', response: invoiceableOutput, errors: [403, 404] },
  }),
  'projectService.create': commandEndpoint({
    call: (c) => c.projects.projectService.create,
    mapInput: (b: z.output<typeof CreateProjectService>) => create(b),
    map: invoiceableServiceV3,
    status: 201,
    doc: {
      summary: 'Stores an invoiceable project service',
      request: named('Project.Service.CreateProjectService', CreateProjectService),
      response: invoiceableOutput,
      errors: [400, 403, 422],
    },
  }),
  'projectService.edit': commandEndpoint({
    call: (c) => c.projects.projectService.edit,
    mapInput: (b: z.output<typeof EditProjectService>) => edit(b),
    map: invoiceableServiceV3,
    status: 200,
    doc: {
      summary: 'Edits an invoiceable project service',
      request: named('Project.Service.EditProjectService', EditProjectService),
      response: invoiceableOutput,
      errors: [400, 403, 404, 422],
    },
  }),
  'projectService.acquisition.create': commandEndpoint({
    call: (c) => c.projects.projectService.acquisition.create,
    mapInput: (b: z.output<typeof CreateAcquisitionProjectService>) => create(b),
    map: acquisitionServiceV3,
    status: 201,
    doc: {
      summary: 'Stores an acquisition service on a project in acquisition',
      request: named('Project.Service.CreateAcquisitionProjectService', CreateAcquisitionProjectService),
      response: acquisitionOutput,
      errors: [400, 403, 422],
    },
  }),
  'projectService.acquisition.edit': commandEndpoint({
    call: (c) => c.projects.projectService.acquisition.edit,
    mapInput: (b: z.output<typeof EditAcquisitionProjectService>) => edit(b),
    map: acquisitionServiceV3,
    status: 201,
    doc: {
      summary: 'Edits an acquisition service',
      request: named('Project.Service.EditAcquisitionProjectService', EditAcquisitionProjectService),
      response: acquisitionOutput,
      errors: [400, 403, 404, 422],
    },
  }),
  'projectService.advance.configuration': queryEndpoint({
    call: (c) => c.projects.projectService.advance.configuration,
    withId: false,
    mapInput: () => ({}),
    map: configurationV3,
    doc: {
      summary: 'Settings of advance services',
      response: named('Project.Service.AdvanceServiceConfiguration', AdvanceServiceConfiguration),
      errors: [403, 404, 500],
    },
  }),
  'projectService.advance.create': commandEndpoint({
    call: (c) => c.projects.projectService.advance.create,
    mapInput: (b: z.output<typeof CreateAdvanceProjectService>) => create(b),
    map: advanceServiceV3,
    status: 201,
    doc: {
      summary: 'Stores an advance (prepayment) service',
      request: named('Project.Service.CreateAdvanceProjectService', CreateAdvanceProjectService),
      response: advanceOutput,
      errors: [400, 403, 422],
    },
  }),
  'projectService.advance.edit': commandEndpoint({
    call: (c) => c.projects.projectService.advance.edit,
    mapInput: (b: z.output<typeof EditAdvanceProjectService>) => edit(b),
    map: advanceServiceV3,
    status: 201,
    doc: {
      summary: 'Edits an advance service',
      request: named('Project.Service.EditAdvanceProjectService', EditAdvanceProjectService),
      response: advanceOutput,
      errors: [400, 403, 422],
    },
  }),
  'projectService.build': commandEndpoint({
    call: (c) => c.projects.projectService.build,
    mapInput: (b: z.output<typeof BuildProjectService>) => b,
    map: builtV3,
    status: 200,
    doc: {
      summary: 'The configuration a service would get from a default service; stores nothing',
      request: named('Project.Service.BuildProjectService', BuildProjectService),
      response: builtOutput,
      errors: [400, 403, 422],
    },
  }),
  'projectService.build.acquisition': commandEndpoint({
    call: (c) => c.projects.projectService.buildAcquisition,
    mapInput: (b: z.output<typeof BuildProjectAcquisitionService>) => b,
    map: builtV3,
    status: 200,
    doc: {
      summary: 'The configuration an acquisition service would get from a default service; stores nothing',
      request: named('Project.Service.BuildProjectAcquisitionService', BuildProjectAcquisitionService),
      response: builtOutput,
      errors: [400, 403, 422],
    },
  }),
};
