import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type RunningService, type ServiceLimits, startService } from '@bo/server';
import { ALL_RIGHTS, createCaller, type Rights, systemClock } from '@bo/domain';
import type { RenderLimits } from '@bo/domain/rendering/render-limits';
import { DEFAULT_UPLOAD_CONFIG, type UploadConfig } from '@bo/domain/uploads/upload-config';
import { DEFAULT_WEBHOOK_CONFIG, type WebhookConfig } from '@bo/domain/webhooks/webhook-config';
import { createTestDatabase, type TestDatabase } from './database.js';
import { type HttpResponse, type RequestOptions, send } from './http.js';

export interface Token {
  key: string;
  secret: string;
}

/** A client bound to one environment's host and one token, for v2 and v3 calls. */
export class ApiClient {
  constructor(
    readonly port: number,
    readonly host: string,
    readonly token: Token | null,
  ) {}

  private v2Headers(): Record<string, string> {
    return this.token ? { 'authentication-key': this.token.key, 'authentication-secret': this.token.secret } : {};
  }

  private v3Headers(): Record<string, string> {
    return this.token ? { authorization: `Bearer ${this.token.key}:${this.token.secret}` } : {};
  }

  v2(method: string, path: string, body?: unknown, extra: Partial<RequestOptions> = {}): Promise<HttpResponse> {
    return send(this.port, method, `/api/v2${path}`, {
      host: this.host,
      body,
      ...extra,
      headers: { ...this.v2Headers(), ...extra.headers },
    });
  }

  v3(method: string, path: string, body?: unknown, extra: Partial<RequestOptions> = {}): Promise<HttpResponse> {
    return send(this.port, method, `/api/v3${path}`, {
      host: this.host,
      body,
      ...extra,
      headers: { ...this.v3Headers(), ...extra.headers },
    });
  }

  withToken(token: Token | null): ApiClient {
    return new ApiClient(this.port, this.host, token);
  }
}

export interface TestService {
  service: RunningService;
  db: TestDatabase;
  dataDir: string;
  /** makes an environment with a user holding `rights` and a token for it */
  environment(name: string, rights?: Rights): Promise<ApiClient>;
  /** another user and token in an existing environment */
  user(environment: string, email: string, rights: Rights): Promise<ApiClient>;
  system: ReturnType<typeof createCaller>;
  /** stops the service only, leaving its database and files (to start it again on them) */
  stopService(): Promise<void>;
  stop(): Promise<void>;
}

let counter = 0;

/** The whole service over HTTPS on a free port, against a fresh database on the local server. */
export async function startTestService(
  opts: {
    httpPort?: boolean;
    trustProxy?: boolean;
    rateLimitPerMinute?: number;
    /** work jobs and webhook deliveries in the service's process (default: no) */
    runWorker?: boolean;
    webhooks?: Partial<WebhookConfig>;
    uploads?: Partial<UploadConfig>;
    /** the render processes' limits (RENDER_* defaults otherwise) */
    rendering?: Partial<RenderLimits>;
    /** the guards' limits (defaults otherwise; the failed-auth throttle is off unless given) */
    limits?: Partial<ServiceLimits>;
    /** DATABASE_REPLICA_URLS: streaming replicas of the database's server (tests/support/pg-cluster.ts) */
    replicaUrls?: string[];
    /** DATABASE_URLS: several clusters, the first the global one (its database replaces `db`'s) */
    databaseUrls?: string[];
    /** REPLICA_MAX_LAG_MS (default 1000) */
    replicaMaxLagMs?: number;
    /** serve /metrics on a free port of 127.0.0.1 (service.metricsPort) */
    metricsPort?: boolean;
    /** export spans over OTLP/HTTP to this collector */
    otlpEndpoint?: string;
    /** V2_ROUTE_TABLE (default true) */
    routeTable?: boolean;
    /** reuse an existing database and data folder (a restart) */
    db?: TestDatabase;
    dataDir?: string;
  } = {},
): Promise<TestService> {
  const db = opts.db ?? (await createTestDatabase());
  const dataDir = opts.dataDir ?? mkdtempSync(path.join(tmpdir(), 'bo-test-'));
  const service = await startService({
    port: 0,
    host: '127.0.0.1',
    httpPort: opts.httpPort ? 0 : null,
    databaseUrl: opts.databaseUrls?.[0] ?? db.url,
    databaseUrls: opts.databaseUrls,
    databaseReplicaUrls: opts.replicaUrls,
    replicaMaxLagMs: opts.replicaMaxLagMs,
    dataDir,
    embeddedDbPort: 0,
    tlsCert: undefined,
    tlsKey: undefined,
    trustProxy: opts.trustProxy ?? false,
    routeTable: opts.routeTable,
    seedDemo: false,
    logLevel: process.env.TEST_LOG_LEVEL ?? 'silent',
    runWorker: opts.runWorker ?? false,
    rateLimitPerMinute: opts.rateLimitPerMinute ?? 0,
    // tests deliver to receivers on 127.0.0.1
    webhooks: { ...DEFAULT_WEBHOOK_CONFIG, allowPrivateTargets: true, ...opts.webhooks },
    uploads: { ...DEFAULT_UPLOAD_CONFIG, ...opts.uploads },
    rendering: opts.rendering,
    // tests make many failed authentications from 127.0.0.1 on purpose: throttled only where a test asks
    limits: { authFailuresPerMinute: 0, ...opts.limits },
    metricsPort: opts.metricsPort ? 0 : null,
    otlpEndpoint: opts.otlpEndpoint,
  });
  const system = createCaller({ prisma: service.database.prisma, principal: { kind: 'system' }, clock: systemClock });
  const user = async (environment: string, email: string, rights: Rights) => {
    await system.admin.user.create({ environment, email, rights });
    const token = await system.admin.token.create({ environment, user: email });
    return new ApiClient(service.port, `${environment}.localhost`, token);
  };
  return {
    service,
    db,
    dataDir,
    system,
    user,
    async environment(name, rights = ALL_RIGHTS) {
      await system.admin.environment.create({ name });
      counter += 1;
      return user(name, `user${counter}@${name}.test`, rights);
    },
    async stopService() {
      await service.stop();
    },
    async stop() {
      await service.stop();
      await db.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The domain's caller acting as `client`'s token in its environment (the router called in process, as internal tools do). */
export async function callerOf(t: TestService, environment: string, client: ApiClient) {
  const principal = await t.system.auth.authenticate({
    environment,
    key: client.token?.key ?? null,
    secret: client.token?.secret ?? null,
  });
  return createCaller({ prisma: t.service.database.prisma, principal, clock: systemClock });
}
