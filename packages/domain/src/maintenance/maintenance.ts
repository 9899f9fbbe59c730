import { outsideRequestScope, type PrismaClient } from '@bo/db';
import { z } from 'zod';
import { NotFoundError } from '../shared/errors.js';
import type { DomainContext } from '../shared/context.js';

/** `*`: every environment; otherwise one environment's name. */
export const ALL_ENVIRONMENTS = '*';

export const maintenanceOnInput = z.object({
  /** an environment's name; absent: every environment */
  environment: z.string().min(1).optional(),
  message: z.string().max(500).optional(),
  /** when the maintenance is expected to end (then answers carry Retry-After) */
  endsAt: z.coerce.date().optional(),
});

export const maintenanceOffInput = z.object({ environment: z.string().min(1).optional() });

export const maintenanceWindowSchema = z.object({
  scope: z.string(),
  message: z.string().nullable(),
  endsAt: z.date().nullable(),
  startedAt: z.date(),
});
export type MaintenanceWindow = z.infer<typeof maintenanceWindowSchema>;

export const maintenanceEndedSchema = z.object({ scope: z.string(), ended: z.boolean() });

async function scopeOf(ctx: DomainContext, environment: string | undefined): Promise<string> {
  if (environment === undefined) return ALL_ENVIRONMENTS;
  const env = await ctx.prisma.environment.findUnique({ where: { name: environment } });
  if (!env) throw new NotFoundError('environment', environment);
  return env.name;
}

export async function maintenanceOn(ctx: DomainContext, input: z.infer<typeof maintenanceOnInput>): Promise<MaintenanceWindow> {
  const scope = await scopeOf(ctx, input.environment);
  const data = { message: input.message ?? null, endsAt: input.endsAt ?? null, startedAt: ctx.clock.now() };
  return ctx.prisma.maintenanceWindow.upsert({ where: { scope }, create: { scope, ...data }, update: data });
}

export async function maintenanceOff(
  ctx: DomainContext,
  input: z.infer<typeof maintenanceOffInput>,
): Promise<z.infer<typeof maintenanceEndedSchema>> {
  const scope = await scopeOf(ctx, input.environment);
  const { count } = await ctx.prisma.maintenanceWindow.deleteMany({ where: { scope } });
  return { scope, ended: count > 0 };
}

export async function maintenanceList(ctx: DomainContext): Promise<MaintenanceWindow[]> {
  return ctx.prisma.maintenanceWindow.findMany({ orderBy: { scope: 'asc' } });
}

/**
 * What the doors and the worker ask on every request or delivery: read from the
 * database at most once per `cacheMs` per process (every process sees a change
 * within that time), so it costs no query per request.
 */
export class MaintenanceReader {
  private windows: MaintenanceWindow[] = [];
  private readAt = 0;
  private reading: Promise<void> | null = null;

  constructor(
    private readonly prisma: PrismaClient,
    private readonly cacheMs = 2_000,
  ) {}

  private async refresh(): Promise<void> {
    if (Date.now() - this.readAt < this.cacheMs) return;
    // one read for every request of every environment: the process's own, never one request's
    // (async: a Prisma query starts when awaited, and it must start in here)
    this.reading ??= outsideRequestScope(async () => await this.prisma.maintenanceWindow.findMany())
      .then((rows) => {
        this.windows = rows;
        this.readAt = Date.now();
      })
      .finally(() => {
        this.reading = null;
      });
    await this.reading;
  }

  /** The window covering an environment (its own first, then the one for all), or null. */
  async forEnvironment(environment: string | null): Promise<MaintenanceWindow | null> {
    await this.refresh();
    return this.covering(environment);
  }

  /**
   * forEnvironment's answer without a promise while the windows read are fresh; undefined when they
   * must be read again (then forEnvironment). A door asks on every request: an await each cost more
   * than the lookup.
   */
  current(environment: string | null): MaintenanceWindow | null | undefined {
    return Date.now() - this.readAt < this.cacheMs ? this.covering(environment) : undefined;
  }

  private covering(environment: string | null): MaintenanceWindow | null {
    if (this.windows.length === 0) return null;
    return (
      (environment ? this.windows.find((w) => w.scope === environment) : undefined) ??
      this.windows.find((w) => w.scope === ALL_ENVIRONMENTS) ??
      null
    );
  }

  /** Every window in force (for /healthz). */
  async all(): Promise<MaintenanceWindow[]> {
    await this.refresh();
    return this.windows;
  }
}

/** The answer's text and Retry-After for a window, in the service's words. */
export function describeMaintenance(w: MaintenanceWindow, now: Date): { message: string; retryAfterSeconds?: number } {
  const until = w.endsAt && w.endsAt.getTime() > now.getTime() ? w.endsAt : null;
  const base = w.message ? `scheduled maintenance: ${w.message}` : 'scheduled maintenance';
  return {
    message: until ? `${base}; expected to end at ${until.toISOString()}` : base,
    ...(until ? { retryAfterSeconds: Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000)) } : {}),
  };
}
