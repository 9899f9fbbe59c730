export { appRouter, createCaller } from './router.js';
export type { AppRouter } from './router.js';
export * from './shared/errors.js';
export type { DomainContext, Principal, UserPrincipal, SystemPrincipal, DomainServices } from './shared/context.js';
export { systemClock } from './shared/clock.js';
export type { Clock } from './shared/clock.js';
export * from './shared/rights.js';
export type { Condition, Comparison, ListQuery, SortKey, Operator } from '@bo/db';
export {
  OPERATORS,
  parseDateTime,
  assertSelectSize,
  assertSortSize,
  listLimits,
  setListLimits,
  DEFAULT_LIST_LIMITS,
} from '@bo/db';
export type { ListLimits } from '@bo/db';
export { environmentFromHost } from './auth/host.js';
export type {
  AnyJobDefinition,
  JobContext,
  JobDefinition,
  JobPayloadInputOf,
  JobPayloadOf,
  JobQueue,
  JobSendOptions,
} from './shared/jobs.js';
export { defineJob, JOB_VERSION_KEY, jobData, readJobData } from './shared/jobs.js';
export { scopedDb } from './shared/context.js';
export { invoiceDraftRequestJob } from './invoices/draft-request/invoice-draft-request.schema.js';
export { runInvoiceDraftRequest } from './invoices/draft-request/run-invoice-draft-request.js';
export type { AnyEntity, Entity, EntityRow } from './shared/entity/index.js';
export { MaintenanceReader, describeMaintenance, ALL_ENVIRONMENTS } from './maintenance/maintenance.js';
export type { MaintenanceWindow } from './maintenance/maintenance.js';
export { declaredEntities, entityOfSchema } from './shared/entity/index.js';
export {
  dateTimeSeconds,
  embeddedKeys,
  fieldKeys,
  type EntityProjection,
  entityProjection,
  type ProjectionForm,
  type ProjectionKeys,
  type ProjectionSource,
} from './shared/entity/index.js';
export type { CustomFieldForm } from './customfields/custom-field-values.load.js';
export * from './shared/precondition.js';
