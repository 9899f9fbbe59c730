import type { WritePrecondition } from './precondition.js';
import type { PrismaClient, ScopedClient } from '@bo/db';
import { aliasClient, scopeToEnvironment } from '@bo/db';
import type { Clock } from './clock.js';
import type { JobQueue } from './jobs.js';
import type { FileStorage } from './storage.js';
import type { RenderPool } from '../rendering/render-pool.js';
import type { UploadConfig } from '../uploads/upload-config.js';
import type { WebhookConfig } from '../webhooks/webhook-config.js';
import type { Rights } from './rights.js';

export interface UserPrincipal {
  kind: 'user';
  environmentId: string;
  environmentName: string;
  userId: string;
  tokenId: string | null;
  rights: Rights;
}

/** Internal callers (the admin CLI, the demo seed, the worker): not reachable over HTTP. */
export interface SystemPrincipal {
  kind: 'system';
}

export type Principal = UserPrincipal | SystemPrincipal;

/** What every procedure receives; it never holds req/res or headers. */
export interface DomainContext {
  prisma: PrismaClient;
  principal: Principal | null;
  clock: Clock;
  requestId?: string;
  /** services the HTTP layer or the worker provides (storage, job queue) */
  services?: DomainServices;
  /** the request's If-Match: checked by the write against the record it locks (shared/precondition.ts) */
  precondition?: WritePrecondition;
  /**
   * 'drop': keys a procedure's input does not know are dropped, as v2's contract tolerates them.
   * Absent, they are refused (BAD_REQUEST naming the key): /trpc, v3, the settings page, the CLI.
   */
  unknownInputKeys?: 'drop';
}

/** Outside services the HTTP layer or the worker provides; each is optional so tests can leave one out. */
export interface DomainServices {
  jobs?: JobQueue;
  /** where upload and document bytes live */
  storage?: FileStorage;
  uploads?: UploadConfig;
  /** webhook target policy (private targets) and delivery settings */
  webhooks?: WebhookConfig;
  /** render processes for expensive work (thumbnails, invoice PDFs); the process's own pool when absent */
  rendering?: RenderPool;
}

const scopedCache = new WeakMap<PrismaClient, Map<string, ScopedClient>>();

/** One tenant-scoped client per environment, cached: extending a client is not free. */
export function scopedDb(prisma: PrismaClient, environmentId: string): ScopedClient {
  let perEnv = scopedCache.get(prisma);
  if (!perEnv) {
    perEnv = new Map();
    scopedCache.set(prisma, perEnv);
  }
  let db = perEnv.get(environmentId);
  if (!db) {
    db = scopeToEnvironment(prisma, environmentId);
    if (perEnv.size > 1000) perEnv.clear();
    perEnv.set(environmentId, db);
  }
  return db;
}

/**
 * Models of the global cluster (DATABASE_URLS' first): whatever client an environment's procedures
 * hold, these are read and written there (docs/scaling.md, "Placement").
 */
const GLOBAL_MODELS = new Set([
  'environment',
  'environmentPlacement',
  'user',
  'apiToken',
  'webSession',
  'loginLink',
  'maintenanceWindow',
  'idempotencyKey',
]);

/**
 * A client of an environment's cluster whose global models are the global cluster's. Methods are
 * bound to their own client (Prisma's rely on `this`); a transaction is the environment cluster's.
 */
function withGlobalModels<C extends object>(tenant: C, global: C): C {
  return new Proxy(tenant, {
    get(target, prop) {
      const from = typeof prop === 'string' && GLOBAL_MODELS.has(prop) ? global : target;
      const value: unknown = Reflect.get(from, prop);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(from) : value;
    },
  });
}

const placedClients = new WeakMap<PrismaClient, PrismaClient>();
const placedScoped = new WeakMap<PrismaClient, Map<string, ScopedClient>>();

/** The environment cluster's client, global models on the global one (one per cluster, cached). */
export function placedPrisma(global: PrismaClient, tenant: PrismaClient): PrismaClient {
  if (tenant === global) return global;
  let placed = placedClients.get(tenant);
  if (!placed) {
    placed = withGlobalModels(tenant, global);
    // the raw paths (rawRead, the pool, its transactions) of the proxy are the environment cluster's
    aliasClient(placed, tenant);
    placedClients.set(tenant, placed);
  }
  return placed;
}

/** scopedDb on the environment's cluster, global models scoped on the global one. */
export function placedScopedDb(global: PrismaClient, tenant: PrismaClient, environmentId: string): ScopedClient {
  if (tenant === global) return scopedDb(global, environmentId);
  let perEnv = placedScoped.get(tenant);
  if (!perEnv) {
    perEnv = new Map();
    placedScoped.set(tenant, perEnv);
  }
  let db = perEnv.get(environmentId);
  if (!db) {
    db = withGlobalModels(scopedDb(tenant, environmentId), scopedDb(global, environmentId));
    if (perEnv.size > 1000) perEnv.clear();
    perEnv.set(environmentId, db);
  }
  return db;
}
