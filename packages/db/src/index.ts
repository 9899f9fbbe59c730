export { aliasClient, createPrismaClient, rawRead, rawScript, rememberedReadsOf } from './client.js';
export type { PrismaClient, RawRead, RawScript, ReadOptions } from './client.js';
export {
  inTransaction,
  SCOPED_ENVIRONMENT,
  scopeToEnvironment,
  tableIdent,
  tenantSql,
  transactionReader,
  withGlobalReads,
} from './tenant.js';
export type {
  ScopedClient,
  ScopedTransaction,
  TenantReader,
  TenantSql,
  TenantSqlOptions,
  WriteTransactionOptions,
} from './tenant.js';
export { REPLICA_APPLICATION_NAME, replicaRouterOf } from './client.js';
export { DEFAULT_REPLICA_MAX_LAG_MS, lsnValue, type ReplicaRouter, type ReplicaStatus } from './replicas.js';
export * from './list-query.js';
export * from './list-sql.js';
export { Prisma } from './generated/prisma/client.js';
export type * as Models from './generated/prisma/models.js';
export { clustersOf, openDatabase, embeddedInfoPath } from './connect.js';
export type { Database, DatabaseCluster, DatabaseOptions } from './connect.js';
export {
  type Cluster,
  type EnvironmentPlace,
  fenceRequestWrites,
  GLOBAL_TABLES,
  PLACEMENT_TTL_MS,
  Placement,
  placementOf,
  registerPlacement,
} from './placement.js';
export { applyMigrations, MigrationHistoryError } from './migrations.js';
export { startEmbeddedDatabase } from './embedded.js';
export { FilesystemStorage } from './file-storage.js';
export { replicaLagSeconds, setReplicaLag } from './observed.js';
export {
  currentRequestScope,
  guardedPoolStats,
  setStatementTracer,
  DEFAULT_IDLE_TIMEOUT_MS,
  DEFAULT_STATEMENT_TIMEOUT_MS,
  GuardedPool,
  isEmbeddedPoolConfig,
  noteRequestWrite,
  outsideRequestScope,
  poolConfig,
  pendingWriteGate,
  RequestGone,
  runInRequestScope,
  setRequestWriteGate,
  sqlError,
  WRITE_FENCE,
} from './pool.js';
export type { GoneSignal, PoolGuards, PoolStats, RequestScope, StatementTracer, WriteGate } from './pool.js';
export { createNotificationListener, LISTENER_APPLICATION_NAME } from './notifications.js';
export {
  MAX_AGE_MS as REMEMBERED_MAX_AGE_MS,
  type RememberedChannel,
  type RememberedReads,
  rememberedReads,
} from './remembered.js';
export type { NotificationListener, NotificationListenerOptions, NotificationLog } from './notifications.js';
