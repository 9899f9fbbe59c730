import { DEFAULT_MAX_JSON_DEPTH } from '@bo/http';
import path from 'node:path';
import { type RenderLimits, renderLimitsFromEnv } from '@bo/domain/rendering/render-limits';
import { type UploadConfig, uploadConfigFromEnv } from '@bo/domain/uploads/upload-config';
import { type WebhookConfig, webhookConfigFromEnv } from '@bo/domain/webhooks/webhook-config';

/** Every setting the service reads, with its default; the README's table lists these. */
export interface ServiceConfig {
  port: number;
  host: string;
  /** optional plain-HTTP listener (for a proxy or health checks); v2 refuses requests on it */
  httpPort: number | null;
  databaseUrl: string | undefined;
  /** DATABASE_URLS: several clusters, the first the global one; environments are placed on them (docs/scaling.md, "Placement") */
  databaseUrls?: string[];
  /** DATABASE_REPLICA_URLS: streaming replicas of DATABASE_URL's server; query reads may go there (read-your-writes kept) */
  databaseReplicaUrls?: string[];
  /** REPLICA_MAX_LAG_MS: a replica further behind the primary is not used (default 1000) */
  replicaMaxLagMs?: number;
  dataDir: string;
  embeddedDbPort: number;
  tlsCert: string | undefined;
  tlsKey: string | undefined;
  trustProxy: boolean;
  /**
   * V2_ROUTE_TABLE: v2's GET requests answered from its own route table, past express's router
   * (default true); false sends every request through express's router (the two answer alike)
   */
  routeTable?: boolean;
  seedDemo: boolean;
  logLevel: string;
  runWorker: boolean;
  /**
   * WORKER_IN_PROCESS: work the jobs in the HTTP process itself. By default a single-process start
   * on a PostgreSQL server works them in a process of its own (see jobs-process.ts); the embedded
   * database (one session) and cluster starts work them in process 1.
   */
  workerInProcess?: boolean;
  /** WEB_CONCURRENCY: HTTP processes on the one port (node:cluster); 1 on the embedded database */
  webConcurrency?: number;
  /** requests per token per minute, shared by all processes; 0 or absent turns the limit off */
  rateLimitPerMinute?: number;
  /** webhook delivery settings (WEBHOOK_*); defaults when absent */
  webhooks?: WebhookConfig;
  /** upload limits (UPLOAD_*); defaults when absent */
  uploads?: UploadConfig;
  /** render processes for thumbnails and PDFs (RENDER_*); defaults when absent */
  rendering?: Partial<RenderLimits>;
  /** the guards every door has; defaults when absent (see the README's table of limits) */
  limits?: Partial<ServiceLimits>;
  /** METRICS_PORT: Prometheus metrics at /metrics on this port, apart from the public one (absent or null: none; 0: any free port) */
  metricsPort?: number | null;
  /** METRICS_HOST: the address the metrics listener binds (default 127.0.0.1) */
  metricsHost?: string;
  /** OTEL_EXPORTER_OTLP_ENDPOINT: export spans over OTLP/HTTP to this collector (absent: no spans) */
  otlpEndpoint?: string;
  /** OTEL_SERVICE_NAME: the spans' service name (default business-operations) */
  otelServiceName?: string;
}

/** The limits of the README's "Limits" table, each with its environment setting. */
export interface ServiceLimits {
  /** DB_POOL_SIZE: connections of the main pool on a PostgreSQL server */
  dbPoolSize: number;
  /** DB_POOL_IDLE_TIMEOUT_MS: every pool closes connections idle this long (0: never) */
  dbIdleTimeoutMs: number;
  /** STATEMENT_TIMEOUT_MS: longest a request's statement may run (0: no limit) */
  statementTimeoutMs: number;
  /** DB_CONNECTIONS_PER_ENVIRONMENT: connections one environment's requests may hold at once */
  connectionsPerEnvironment: number;
  /**
   * REQUESTS_PER_ENVIRONMENT: requests of one environment a process works on at once while other
   * environments have requests in it, the others waiting (0: no fair share of the process)
   */
  requestsPerEnvironment: number;
  /** REQUESTS_PER_ENVIRONMENT_ALONE: the same while it is the only environment with requests in the process */
  requestsPerEnvironmentAlone: number;
  /** QUERY_MAX_PATH_DEPTH, QUERY_MAX_CONDITIONS, QUERY_MAX_SORT_KEYS, QUERY_MAX_SELECT_PATHS */
  maxPathDepth: number;
  maxConditions: number;
  maxSortKeys: number;
  maxSelectPaths: number;
  /** TRPC_MAX_BATCH: calls in one /trpc batch */
  trpcMaxBatch: number;
  /** MAX_JSON_DEPTH: how deep a JSON body may nest arrays and objects (every door) */
  maxJsonDepth: number;
  /** AUTH_FAILURES_PER_MINUTE: failed authentications per client address per minute (0: off) */
  authFailuresPerMinute: number;
}

export const DEFAULT_LIMITS: Readonly<ServiceLimits> = Object.freeze({
  dbPoolSize: 10,
  dbIdleTimeoutMs: 10_000,
  statementTimeoutMs: 5_000,
  connectionsPerEnvironment: 5,
  requestsPerEnvironment: 1,
  requestsPerEnvironmentAlone: 8,
  maxPathDepth: 5,
  maxConditions: 50,
  maxSortKeys: 5,
  maxSelectPaths: 50,
  trpcMaxBatch: 10,
  maxJsonDepth: DEFAULT_MAX_JSON_DEPTH,
  authFailuresPerMinute: 30,
});

/** The limits with their defaults filled in. */
export function serviceLimits(config: Pick<ServiceConfig, 'limits'>): ServiceLimits {
  return { ...DEFAULT_LIMITS, ...config.limits };
}

function bool(v: string | undefined, fallback: boolean): boolean {
  if (v === undefined || v === '') return fallback;
  return ['1', 'true', 'yes', 'on'].includes(v.toLowerCase());
}

function int(name: string, v: string | undefined, fallback: number): number {
  if (v === undefined || v === '') return fallback;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new Error(`${name} must be a port number, got "${v}"`);
  return n;
}

function count(name: string, v: string | undefined, fallback: number): number {
  if (v === undefined || v === '') return fallback;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a whole number, got "${v}"`);
  return n;
}

function databaseUrls(env: NodeJS.ProcessEnv): string[] {
  return (env.DATABASE_URLS ?? '')
    .split(',')
    .map((u) => u.trim())
    .filter((u) => u !== '');
}

export function configFromEnv(env: NodeJS.ProcessEnv = process.env): ServiceConfig {
  return {
    port: int('PORT', env.PORT, 3000),
    host: env.HOST ?? '0.0.0.0',
    httpPort: env.HTTP_PORT ? int('HTTP_PORT', env.HTTP_PORT, 0) : null,
    // the first of DATABASE_URLS is the global cluster: every check of "a server" looks at this one
    databaseUrl: databaseUrls(env)[0] ?? (env.DATABASE_URL || undefined),
    databaseUrls: databaseUrls(env),
    databaseReplicaUrls: (env.DATABASE_REPLICA_URLS ?? '')
      .split(',')
      .map((u) => u.trim())
      .filter((u) => u !== ''),
    replicaMaxLagMs: count('REPLICA_MAX_LAG_MS', env.REPLICA_MAX_LAG_MS, 1_000),
    dataDir: path.resolve(env.DATA_DIR ?? '.data'),
    embeddedDbPort: int('EMBEDDED_DB_PORT', env.EMBEDDED_DB_PORT, 0),
    tlsCert: env.TLS_CERT || undefined,
    tlsKey: env.TLS_KEY || undefined,
    trustProxy: bool(env.TRUST_PROXY, false),
    routeTable: bool(env.V2_ROUTE_TABLE, true),
    seedDemo: bool(env.SEED_DEMO, true),
    logLevel: env.LOG_LEVEL ?? 'info',
    runWorker: bool(env.RUN_WORKER, true),
    workerInProcess: bool(env.WORKER_IN_PROCESS, false),
    // 0 or absent: one process (platforms set WEB_CONCURRENCY from the machine's size)
    webConcurrency: Math.max(1, count('WEB_CONCURRENCY', env.WEB_CONCURRENCY, 1)),
    metricsPort: env.METRICS_PORT ? int('METRICS_PORT', env.METRICS_PORT, 0) : null,
    metricsHost: env.METRICS_HOST || '127.0.0.1',
    otlpEndpoint: env.OTEL_EXPORTER_OTLP_ENDPOINT || undefined,
    otelServiceName: env.OTEL_SERVICE_NAME || undefined,
    rateLimitPerMinute: count('RATE_LIMIT_PER_MINUTE', env.RATE_LIMIT_PER_MINUTE, 600),
    webhooks: webhookConfigFromEnv(env),
    uploads: uploadConfigFromEnv(env),
    rendering: renderLimitsFromEnv(env),
    limits: {
      dbPoolSize: Math.max(1, count('DB_POOL_SIZE', env.DB_POOL_SIZE, DEFAULT_LIMITS.dbPoolSize)),
      dbIdleTimeoutMs: count('DB_POOL_IDLE_TIMEOUT_MS', env.DB_POOL_IDLE_TIMEOUT_MS, DEFAULT_LIMITS.dbIdleTimeoutMs),
      statementTimeoutMs: count('STATEMENT_TIMEOUT_MS', env.STATEMENT_TIMEOUT_MS, DEFAULT_LIMITS.statementTimeoutMs),
      connectionsPerEnvironment: count(
        'DB_CONNECTIONS_PER_ENVIRONMENT',
        env.DB_CONNECTIONS_PER_ENVIRONMENT,
        DEFAULT_LIMITS.connectionsPerEnvironment,
      ),
      requestsPerEnvironment: count(
        'REQUESTS_PER_ENVIRONMENT',
        env.REQUESTS_PER_ENVIRONMENT,
        DEFAULT_LIMITS.requestsPerEnvironment,
      ),
      requestsPerEnvironmentAlone: count(
        'REQUESTS_PER_ENVIRONMENT_ALONE',
        env.REQUESTS_PER_ENVIRONMENT_ALONE,
        DEFAULT_LIMITS.requestsPerEnvironmentAlone,
      ),
      maxPathDepth: Math.max(1, count('QUERY_MAX_PATH_DEPTH', env.QUERY_MAX_PATH_DEPTH, DEFAULT_LIMITS.maxPathDepth)),
      maxConditions: Math.max(1, count('QUERY_MAX_CONDITIONS', env.QUERY_MAX_CONDITIONS, DEFAULT_LIMITS.maxConditions)),
      maxSortKeys: Math.max(1, count('QUERY_MAX_SORT_KEYS', env.QUERY_MAX_SORT_KEYS, DEFAULT_LIMITS.maxSortKeys)),
      maxSelectPaths: Math.max(1, count('QUERY_MAX_SELECT_PATHS', env.QUERY_MAX_SELECT_PATHS, DEFAULT_LIMITS.maxSelectPaths)),
      trpcMaxBatch: Math.max(1, count('TRPC_MAX_BATCH', env.TRPC_MAX_BATCH, DEFAULT_LIMITS.trpcMaxBatch)),
      maxJsonDepth: Math.max(1, count('MAX_JSON_DEPTH', env.MAX_JSON_DEPTH, DEFAULT_LIMITS.maxJsonDepth)),
      authFailuresPerMinute: count(
        'AUTH_FAILURES_PER_MINUTE',
        env.AUTH_FAILURES_PER_MINUTE,
        DEFAULT_LIMITS.authFailuresPerMinute,
      ),
    },
  };
}
