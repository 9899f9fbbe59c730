// PostgreSQL clusters a test starts itself: a primary made with initdb, replicas made from it with
// pg_basebackup, each a server of its own on a free loopback port, under a temporary folder. For
// tests that need what the machine's server cannot give (replication, a server to stop and start):
// read replicas (tests/read-replicas.test.ts) and the whole topology (tests/topology.test.ts).
//
// Debian's server binaries refuse to run as root: as root, they run as `postgres` (runuser), on a
// folder that user owns. Made for speed, not durability: fsync off, small shared buffers.
import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);

/** where Debian puts PostgreSQL 15's server binaries; PG_BIN overrides */
export const PG_BIN = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';

export interface PgCluster {
  /** the data folder */
  dir: string;
  port: number;
  /** a connection string to one of its databases (default `postgres`) */
  url(database?: string): string;
  /** one statement on one of its databases, on a connection of its own */
  query<T extends pg.QueryResultRow = Record<string, unknown>>(sql: string, params?: unknown[], database?: string): Promise<T[]>;
  /** `pg_ctl start` (waits until it accepts connections) */
  start(): Promise<void>;
  /**
   * `pg_ctl stop -m fast` (connections are closed at once), or `-m immediate`: the server quits
   * without a shutdown checkpoint, as after a crash (its next start recovers from the WAL)
   */
  stop(mode?: 'fast' | 'immediate'): Promise<void>;
  readonly running: boolean;
}

export interface PgClusters {
  primary: PgCluster;
  /** a streaming replica of the primary, made with pg_basebackup -R and started */
  addReplica(): Promise<PgCluster>;
  /** stops every cluster and removes the folder */
  destroy(): Promise<void>;
}

const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;

/** runs a server binary, as `postgres` when this process is root */
async function pgBin(binary: string, args: string[]): Promise<string> {
  const file = path.join(PG_BIN, binary);
  const [cmd, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', file, ...args]] : [file, args];
  const { stdout } = await run(cmd, argv, { maxBuffer: 10 * 1024 * 1024 });
  return stdout;
}

/** a loopback port nobody listens on now */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as net.AddressInfo).port;
      server.close(() => resolve(port));
    });
  });
}

/** settings of every test cluster: quick to start, replication on, nothing durable */
const SETTINGS = [
  "listen_addresses = '127.0.0.1'",
  'shared_buffers = 16MB',
  'fsync = off',
  'full_page_writes = off',
  'wal_level = replica',
  'max_wal_senders = 5',
  'wal_keep_size = 128MB',
  'hot_standby = on',
  // replica reads are not cancelled by the primary's vacuum of rows they still see
  'hot_standby_feedback = on',
  'max_connections = 100',
  // what tests count statements with, per server
  "shared_preload_libraries = 'pg_stat_statements'",
  'pg_stat_statements.track = all',
];

function cluster(root: string, name: string, port: number): PgCluster {
  const dir = path.join(root, name);
  let running = false;
  const url = (database = 'postgres') => `postgresql://postgres@127.0.0.1:${port}/${database}`;
  return {
    dir,
    port,
    url,
    get running() {
      return running;
    },
    async query(sql, params, database) {
      const client = new pg.Client({ connectionString: url(database) });
      client.on('error', () => {});
      await client.connect();
      try {
        return (await client.query(sql, params as unknown[])).rows;
      } finally {
        await client.end().catch(() => {});
      }
    },
    async start() {
      await pgBin('pg_ctl', ['-D', dir, '-w', '-t', '60', '-l', `${dir}.log`, '-o', `-p ${port} -k ${root}`, 'start']);
      running = true;
    },
    async stop(mode = 'fast') {
      if (!running) return;
      await pgBin('pg_ctl', ['-D', dir, '-w', '-t', '60', '-m', mode, 'stop']);
      running = false;
    },
  };
}

/**
 * A primary cluster (initdb, started), ready to have replicas made from it. The folder is owned
 * by `postgres` when this process is root. `settings` are appended after the test settings above
 * (a later line wins), e.g. `fsync = on` for a benchmark that writes; `onFolder` is told the folder
 * every server of these clusters will be under, before the first is started.
 */
export async function startClusters(opts: { settings?: string[]; onFolder?: (root: string) => void } = {}): Promise<PgClusters> {
  if (!existsSync(path.join(PG_BIN, 'initdb'))) {
    throw new Error(`PostgreSQL's server binaries are not in ${PG_BIN} (initdb, pg_ctl, pg_basebackup); set PG_BIN`);
  }
  const root = mkdtempSync(path.join(tmpdir(), 'bo-pg-'));
  // a caller that must clean up after a kill learns the folder before any server is started in it
  opts.onFolder?.(root);
  const all: PgCluster[] = [];
  const destroy = async () => {
    for (const c of [...all].reverse()) {
      // a start cut short (its pg_ctl interrupted) may have left a server running all the same
      if (c.running || existsSync(path.join(c.dir, 'postmaster.pid'))) {
        await pgBin('pg_ctl', ['-D', c.dir, '-w', '-t', '60', '-m', 'fast', 'stop']).catch(() => {});
      }
    }
    rmSync(root, { recursive: true, force: true });
  };
  let primary: PgCluster;
  try {
    if (asRoot) {
      const uid = Number((await run('id', ['-u', 'postgres'])).stdout.trim());
      const gid = Number((await run('id', ['-g', 'postgres'])).stdout.trim());
      chownSync(root, uid, gid);
    }
    primary = cluster(root, 'primary', await freePort());
    all.push(primary);
    await pgBin('initdb', ['-D', primary.dir, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8', '--locale=C']);
    await appendConfig(primary.dir, [...SETTINGS, ...(opts.settings ?? [])], ['host replication all 127.0.0.1/32 trust']);
    await primary.start();
  } catch (err) {
    await destroy();
    throw err;
  }
  let replicas = 0;
  return {
    primary,
    async addReplica() {
      replicas += 1;
      const replica = cluster(root, `replica${replicas}`, await freePort());
      all.push(replica);
      await pgBin('pg_basebackup', ['-R', '-X', 'stream', '-c', 'fast', '--no-sync', '-D', replica.dir, '-d', primary.url()]);
      await replica.start();
      return replica;
    },
    destroy,
  };
}

/** appends settings to postgresql.conf and lines to pg_hba.conf, as the folder's owner */
async function appendConfig(dir: string, settings: string[], hba: string[]): Promise<void> {
  const append = (file: string, lines: string[]) => {
    const text = lines.map((l) => `${l}\n`).join('');
    return asRoot
      ? run('runuser', ['-u', 'postgres', '--', 'sh', '-c', `printf '%s' "$0" >> "$1"`, text, path.join(dir, file)])
      : run('sh', ['-c', `printf '%s' "$0" >> "$1"`, text, path.join(dir, file)]);
  };
  await append('postgresql.conf', settings);
  await append('pg_hba.conf', hba);
}

/** Waits until `check` answers true, polling every 50 ms; fails with `what` after `ms`. */
export async function waitUntil(check: () => Promise<boolean> | boolean, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`waited ${ms} ms for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
