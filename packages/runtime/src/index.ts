export { configFromEnv, DEFAULT_LIMITS, serviceLimits } from './config.js';
export type { ServiceConfig, ServiceLimits } from './config.js';
export { loadTls } from './tls.js';
export type { TlsMaterial } from './tls.js';
export { createRateLimit } from './rate-limit.js';
export type { RateLimit, RateLimitDecision } from './rate-limit.js';
export { createHttpApp } from './http-app.js';
export { RequestShare } from './request-share.js';
export { JsonText } from './json-answer.js';
export { ITEMS_PER_TURN, jsonItemsInTurns, takesTurns } from './turns.js';
export type { ClaimedRequest, ClaimRequest, HttpAppOptions, HttpMount, HttpMountContext } from './http-app.js';
export {
  admissionOf,
  createGuard,
  EnvironmentBusyError,
  leaveShare,
  MaintenanceError,
  TooManyRequestsError,
  TransportSecurityError,
  UnknownEnvironmentError,
} from './guard.js';
export type { Admission, DoorCredentials, DoorOptions, Guard, GuardOptions } from './guard.js';
export { serviceLogger, startCore, startHttpService } from './start.js';
export type { HttpService, JobsOptions, ProcessCore, ProcessOptions, RunningJobs } from './start.js';
export { ADMIN_COMMAND, announce, jobsInOwnProcess, processCount, runMain, serveAlone, serveFromEnv } from './run.js';
export { CLUSTER_PROCESS_ENV, clusterProcessNumber } from './cluster.js';
export { isLauncher, launcherChain, watchLaunchers } from './launcher.js';
export { createIdempotencyStore, idempotency, IDEMPOTENCY_KEY_TTL_MS } from './idempotency.js';
export type { IdempotencyMiddleware, IdempotencyRender, IdempotencyStore } from './idempotency.js';
export {
  recordUploadBytes,
  recordWebhookAttempt,
  registry as metricsRegistry,
  scrape as scrapeMetrics,
  startMetricsServer,
} from './metrics.js';
export type { MetricsServer, QueueDepth } from './metrics.js';
export { requestTracer, startTracing } from './tracing.js';
export { UNMATCHED_ROUTE } from './http-app.js';
