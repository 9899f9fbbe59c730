import type { WritePrecondition } from './precondition.js';
import type { PrismaClient, ScopedClient } from '@bo/db';
import { scopeToEnvironment } from '@bo/db';
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
