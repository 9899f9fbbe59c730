// Embedded PostgreSQL for development and single-machine installs: PGlite
// (PostgreSQL compiled to WebAssembly) persisted in a folder, served over TCP on
// loopback by pglite-socket so that the normal `pg` / @prisma/adapter-pg stack
// talks to it like to any PostgreSQL server.
import { mkdir, open, readFile, rm } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

export interface EmbeddedDatabaseOptions {
  /** Folder for the data; PGlite's files go in `<dataDir>/pglite`. */
  dataDir: string;
  /** TCP port; 0 (default) picks any free port. */
  port?: number;
  /** Loopback address to listen on; default 127.0.0.1. */
  host?: string;
}

export interface EmbeddedDatabase {
  /** postgresql://postgres@127.0.0.1:<port>/postgres */
  connectionString: string;
  port: number;
  /** Closes the socket server, then PGlite (flushing its files), then releases the data-dir lock. */
  stop(): Promise<void>;
}

/**
 * PGlite runs one backend; the socket server multiplexes client connections onto
 * it, keeping a connection's open transaction exclusive. More than one connection
 * is allowed so that e.g. migrations (which hold an advisory lock on a side
 * connection) and an app pool can connect at once; apps should still use `max: 1`.
 */
const MAX_SOCKET_CONNECTIONS = 8;
const LOCK_FILE = 'pglite.lock';

export async function startEmbeddedDatabase(opts: EmbeddedDatabaseOptions): Promise<EmbeddedDatabase> {
  const dataDir = path.resolve(opts.dataDir);
  const host = opts.host ?? '127.0.0.1';
  const requestedPort = opts.port ?? 0;
  // Fail fast on a taken port, before the few seconds PGlite needs to start.
  if (requestedPort !== 0) await assertPortFree(host, requestedPort);
  await mkdir(dataDir, { recursive: true });
  const releaseLock = await acquireDataDirLock(dataDir);

  let db: PGlite | undefined;
  try {
    const pgliteDir = path.join(dataDir, 'pglite');
    await mkdir(pgliteDir, { recursive: true });
    db = await PGlite.create(pgliteDir);
    const server = new PGLiteSocketServer({ db, host, port: requestedPort, maxConnections: MAX_SOCKET_CONNECTIONS });
    try {
      await server.start();
    } catch (err) {
      if (errorCode(err) === 'EADDRINUSE') throw portInUse(host, requestedPort);
      throw err;
    }
    // getServerConn() is "host:port" with the port the OS actually assigned.
    const port = Number(server.getServerConn().split(':').pop());
    if (!Number.isInteger(port) || port <= 0) {
      await server.stop();
      throw new Error(`Embedded database: could not tell which port the socket server listens on (${server.getServerConn()})`);
    }
    const hostInUrl = host.includes(':') ? `[${host}]` : host;
    const openDb = db;
    let stopped: Promise<void> | undefined;
    return {
      // No sslmode needed: the socket server answers "N" to an SSLRequest and pg
      // does not ask for TLS unless told to; user and database are ignored by PGlite.
      connectionString: `postgresql://postgres@${hostInUrl}:${port}/postgres`,
      port,
      stop: () => {
        stopped ??= (async () => {
          try {
            await server.stop();
          } finally {
            try {
              await openDb.close();
            } finally {
              await releaseLock();
            }
          }
        })();
        return stopped;
      },
    };
  } catch (err) {
    await db?.close().catch(() => {});
    await releaseLock();
    throw err;
  }
}

function portInUse(host: string, port: number): Error {
  return new Error(
    `Embedded database: port ${port} on ${host} is already in use. Stop whatever listens there or choose another port (0 picks a free one).`,
  );
}

async function assertPortFree(host: string, port: number): Promise<void> {
  const probe = net.createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', (err) => reject(errorCode(err) === 'EADDRINUSE' ? portInUse(host, port) : err));
    probe.listen(port, host, () => probe.close(() => resolve()));
  });
}

function errorCode(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null && 'code' in err && typeof err.code === 'string' ? err.code : undefined;
}

async function readLockPid(lockPath: string): Promise<number | null> {
  const pid = Number((await readFile(lockPath, 'utf8').catch(() => '')).trim());
  return Number.isInteger(pid) && pid > 0 ? pid : null;
}

function pidIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    return errorCode(err) === 'EPERM';
  }
}

/**
 * PGlite's files must be opened by one process at a time (it has no locking of
 * its own and two writers corrupt the data). A lock file holding our pid guards
 * the folder; a lock left by a dead process is taken over.
 */
async function acquireDataDirLock(dataDir: string): Promise<() => Promise<void>> {
  const lockPath = path.join(dataDir, LOCK_FILE);
  const ownContent = String(process.pid);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const handle = await open(lockPath, 'wx');
      try {
        await handle.writeFile(ownContent);
      } finally {
        await handle.close();
      }
      let released = false;
      return async () => {
        if (released) return;
        released = true;
        // Only remove the lock if it is still ours.
        const current = await readFile(lockPath, 'utf8').catch(() => null);
        if (current?.trim() === ownContent) await rm(lockPath, { force: true });
      };
    } catch (err) {
      if (errorCode(err) !== 'EEXIST') throw err;
    }
    let holder = await readLockPid(lockPath);
    if (holder === null) {
      // Another process may have just created the file and not written its pid yet.
      await new Promise((r) => setTimeout(r, 200));
      holder = await readLockPid(lockPath);
    }
    if (holder !== null && pidIsAlive(holder)) {
      const who = holder === process.pid ? 'this process (it is already open here)' : `process ${holder}`;
      throw new Error(
        `Embedded database: ${dataDir} is in use by ${who}. PGlite allows only one process to open its data; stop the other one or use another data dir. (If no such process runs, delete ${lockPath}.)`,
      );
    }
    // Stale (dead pid) or unreadable lock: take it over and try again.
    await rm(lockPath, { force: true });
  }
  throw new Error(`Embedded database: could not take the lock ${lockPath}`);
}
