/**
 * Entities: declared once (fields, columns, relations, flags, module right), with
 * the list model, the page loader, the output schema and the CRUD procedures
 * derived from the declaration. See crm/organization for the whole pattern.
 */
export { f, restrictedReference, snakeCase, type AnyField, type TargetEntity } from './fields.js';
export {
  declaredEntities,
  defineEntity,
  entityOfSchema,
  entityOfTable,
  sqlModelOf,
  type AnyEntity,
  type Entity,
  type EntityRow,
  type RowOf,
} from './define-entity.js';
export { embeddedRowSql, type PageSource } from './entity-loader.js';
export {
  dateTimeSeconds,
  embeddedKeys,
  fieldKeys,
  type EntityProjection,
  entityProjection,
  type ProjectionForm,
  type ProjectionKeys,
  type ProjectionSource,
} from './entity-projection.js';
export {
  createEntity,
  deleteEntity,
  type EntityCreate,
  entityEventData,
  type EntityRemove,
  type EntityUpdate,
  getEntity,
  inSqlWrite,
  withReservedRender,
  type ListResult,
  listEntity,
  listEntityAs,
  recordChange,
  updateEntity,
  type SqlWriteContext,
} from './entity-crud.js';
export { columnsOfWrite, writeSchemasOf } from './entity-write.js';
export { assertReferences, declaredReferences, type ReferenceCheck } from './entity-references.js';
export {
  entityCreate,
  entityCreateCommand,
  entityDelete,
  entityQueries,
  entityUpdate,
  entityUpdateCommand,
  idInputSchema,
  listQuerySchema,
} from './entity-router.js';
