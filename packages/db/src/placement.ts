// Environments placed on several PostgreSQL clusters (DATABASE_URLS; docs/scaling.md, "Placement").
//
// The first cluster is the global one: environments, users, tokens, sessions, maintenance windows,
// idempotency keys, the rate limiter and the placement table itself live there. Each environment's
// tenant data lives on one cluster, named by its position in DATABASE_URLS (0 = the first). The table
// `environment_placement` (global) says which; an environment without a row lives on the first.
//
// A process reads an environment's placement at most once per PLACEMENT_TTL_MS (one statement on the
// global cluster), so a request costs no extra statement in the steady state. A move relies on that
// bound: it freezes writes, waits past it so that every process has seen the freeze, copies, switches
// the cluster while writes are still frozen, waits past it again so that no process still routes to
// the old cluster, and only then lets writes go to the new one (move-environment.ts in the domain).
//
// With one cluster (DATABASE_URLS unset) nothing of this exists: no Placement is registered, and
// `placementOf` is one WeakMap miss per procedure call.
import { type PrismaClient, poolOf, rawRead } from './client.js';
import { currentRequestScope } from './pool.js';

/**
 * The tables of global data, on the first cluster only (a cluster other than the first has them, empty:
 * every cluster runs the same migrations). A tenant row may name a row of these (an employee's user):
 * such a reference is checked and read on the first cluster (TenantSql.global), and no foreign key
 * joins a tenant table to one of them (none could, across clusters).
 */
export const GLOBAL_TABLES: ReadonlySet<string> = new Set([
  'environment',
  'environment_placement',
  'user_account',
  'api_token',
  'web_session',
  'login_link',
  'maintenance_window',
  'idempotency_key',
]);

/** how long a process trusts a placement it read; a move waits longer than this twice */
export const PLACEMENT_TTL_MS = 1_000;

export interface Cluster {
  /** position in DATABASE_URLS: what the placement table stores */
  index: number;
  /** host:port/database, no credentials (logs, CLI answers) */
  name: string;
  connectionString: string;
  prisma: PrismaClient;
}

export interface EnvironmentPlace {
  cluster: Cluster;
  /** a move is copying the environment's last changes: its writes wait (503 with Retry-After) */
  writesFrozen: boolean;
}

interface Remembered {
  place: EnvironmentPlace;
  at: number;
}

export class Placement {
  private readonly remembered = new Map<string, Remembered>();
  private readonly reading = new Map<string, Promise<EnvironmentPlace>>();

  constructor(
    readonly clusters: readonly Cluster[],
    private readonly ttlMs = PLACEMENT_TTL_MS,
  ) {
    if (clusters.length === 0) throw new Error('a placement needs at least one cluster');
  }

  /** the first cluster: global data, and every environment without a placement row */
  get global(): Cluster {
    return this.clusters[0] as Cluster;
  }

  cluster(index: number): Cluster {
    const c = this.clusters[index];
    if (!c) throw new Error(`no cluster ${index}: DATABASE_URLS names ${this.clusters.length}`);
    return c;
  }

  /** Where an environment lives, as this process last read it (at most PLACEMENT_TTL_MS ago). */
  async of(environmentId: string): Promise<EnvironmentPlace> {
    const known = this.remembered.get(environmentId);
    if (known && performance.now() - known.at < this.ttlMs) return known.place;
    let pending = this.reading.get(environmentId);
    if (!pending) {
      pending = this.read(environmentId).finally(() => this.reading.delete(environmentId));
      this.reading.set(environmentId, pending);
    }
    return pending;
  }

  /** the client of an environment's cluster */
  async clientOf(environmentId: string): Promise<PrismaClient> {
    return (await this.of(environmentId)).cluster.prisma;
  }

  /** reads the placement now (the mover, the CLI), and remembers it */
  async read(environmentId: string): Promise<EnvironmentPlace> {
    const started = performance.now();
    const rows = await rawRead(this.global.prisma)<{ cluster: number; writes_frozen: boolean }>(
      'SELECT cluster, writes_frozen FROM environment_placement WHERE environment_id = $1',
      [environmentId],
      { stablePlan: true },
    );
    const row = rows[0];
    // a placement naming a cluster this process was not given is a configuration error, said loudly
    const place: EnvironmentPlace = { cluster: this.cluster(row?.cluster ?? 0), writesFrozen: row?.writes_frozen ?? false };
    // remembered from when the read started: its answer may be that old
    this.remembered.set(environmentId, { place, at: started });
    if (this.remembered.size > 100_000) this.remembered.clear();
    return place;
  }

  /**
   * The cluster a new environment goes to: the one holding the fewest environments (ties: the
   * earliest in DATABASE_URLS), so that clusters added later fill up first.
   */
  async chooseForNew(): Promise<Cluster> {
    const read = rawRead(this.global.prisma);
    const placed = await read<{ cluster: number; n: string }>(
      'SELECT cluster, count(*)::text AS n FROM environment_placement GROUP BY cluster',
      [],
    );
    const [total] = await read<{ n: string }>('SELECT count(*)::text AS n FROM environment', []);
    const counts = this.clusters.map(() => 0);
    let placedTotal = 0;
    for (const p of placed) {
      if (p.cluster < counts.length) counts[p.cluster] = Number(p.n);
      placedTotal += Number(p.n);
    }
    // environments without a row live on the first cluster
    counts[0] = (counts[0] ?? 0) + Math.max(0, Number(total?.n ?? 0) - placedTotal);
    let best = 0;
    for (let i = 1; i < counts.length; i += 1) if ((counts[i] ?? 0) < (counts[best] ?? 0)) best = i;
    return this.cluster(best);
  }

  /** writes an environment's placement (global cluster) and forgets what this process remembered */
  async set(environmentId: string, cluster: number, writesFrozen: boolean): Promise<void> {
    this.cluster(cluster);
    await rawRead(this.global.prisma)(
      `INSERT INTO environment_placement (environment_id, cluster, writes_frozen, updated_at) VALUES ($1, $2, $3, now())
       ON CONFLICT (environment_id) DO UPDATE SET cluster = EXCLUDED.cluster, writes_frozen = EXCLUDED.writes_frozen, updated_at = now()`,
      [environmentId, cluster, writesFrozen],
    );
    this.remembered.delete(environmentId);
  }

  async close(): Promise<void> {
    // the first cluster's client is the database's own: its owner closes it
    await Promise.all(this.clusters.slice(1).map((c) => c.prisma.$disconnect()));
  }
}

// the placement of a database, by its global client (registered by openDatabase with DATABASE_URLS)
const placements = new WeakMap<PrismaClient, Placement>();

export function registerPlacement(placement: Placement): void {
  placements.set(placement.global.prisma, placement);
  // a cluster's own client answers for the placement too (a job's context holds that one)
  for (const c of placement.clusters) placements.set(c.prisma, placement);
}

/** The placement behind a client of a multi-cluster database; undefined with one cluster. */
export function placementOf(client: PrismaClient): Placement | undefined {
  return placements.get(client);
}

/**
 * The running request's writes of the environment on this client's cluster take the environment's write
 * fence first (WRITE_FENCE in pool.ts): a move waits for those in flight and refuses later ones, however
 * long ago the request was admitted. Called for a mutation on a database of several clusters only.
 */
export function fenceRequestWrites(client: PrismaClient, environmentId: string): void {
  const scope = currentRequestScope();
  const pool = poolOf(client);
  if (scope && pool?.fenced) scope.writeFence = { environmentId, pool };
}
