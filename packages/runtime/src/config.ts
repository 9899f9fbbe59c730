import path from 'node:path';
import { type UploadConfig, uploadConfigFromEnv } from '@bo/domain/uploads/upload-config';
import { type WebhookConfig, webhookConfigFromEnv } from '@bo/domain/webhooks/webhook-config';

/** Every setting the service reads, with its default; the README's table lists these. */
export interface ServiceConfig {
  port: number;
  host: string;
  /** optional plain-HTTP listener (for a proxy or health checks); v2 refuses requests on it */
  httpPort: number | null;
  databaseUrl: string | undefined;
  dataDir: string;
  embeddedDbPort: number;
  tlsCert: string | undefined;
  tlsKey: string | undefined;
  trustProxy: boolean;
  seedDemo: boolean;
  logLevel: string;
  runWorker: boolean;
  /** requests per token per minute, shared by all processes; 0 or absent turns the limit off */
  rateLimitPerMinute?: number;
  /** webhook delivery settings (WEBHOOK_*); defaults when absent */
  webhooks?: WebhookConfig;
  /** upload limits (UPLOAD_*); defaults when absent */
  uploads?: UploadConfig;
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

export function configFromEnv(env: NodeJS.ProcessEnv = process.env): ServiceConfig {
  return {
    port: int('PORT', env.PORT, 3000),
    host: env.HOST ?? '0.0.0.0',
    httpPort: env.HTTP_PORT ? int('HTTP_PORT', env.HTTP_PORT, 0) : null,
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: path.resolve(env.DATA_DIR ?? '.data'),
    embeddedDbPort: int('EMBEDDED_DB_PORT', env.EMBEDDED_DB_PORT, 0),
    tlsCert: env.TLS_CERT || undefined,
    tlsKey: env.TLS_KEY || undefined,
    trustProxy: bool(env.TRUST_PROXY, false),
    seedDemo: bool(env.SEED_DEMO, true),
    logLevel: env.LOG_LEVEL ?? 'info',
    runWorker: bool(env.RUN_WORKER, true),
    rateLimitPerMinute: count('RATE_LIMIT_PER_MINUTE', env.RATE_LIMIT_PER_MINUTE, 600),
    webhooks: webhookConfigFromEnv(env),
    uploads: uploadConfigFromEnv(env),
  };
}
