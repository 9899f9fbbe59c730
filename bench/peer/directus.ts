import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { PeerInstall } from './install.js';

export interface RunningDirectus {
  /** http://127.0.0.1:<port> */
  url: string;
  /** the static admin token (ADMIN_TOKEN), sent as `Authorization: Bearer <token>` */
  token: string;
  /** registers an existing table of the database as a Directus collection */
  registerCollection(table: string): Promise<void>;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Runs Directus's CLI on Node 22; answers the output, throws with its tail when it fails. */
function cli(install: PeerInstall, args: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(install.node, [install.directusCli, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString('utf8');
    });
    child.stderr.on('data', (c: Buffer) => {
      out += c.toString('utf8');
    });
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`directus ${args.join(' ')} exited with ${code}:\n${out.slice(-3000)}`)),
    );
  });
}

/**
 * Directus 11 on Node 22 as a child process on a loopback port, against an existing database
 * (its own directus_* tables beside ours, made by `directus bootstrap`). Cache, rate limiter,
 * pressure limiter (it answers 503 when the event loop is busy, which would count as fast
 * replies), telemetry and the admin app are off; everything else is Directus's default.
 */
export async function startDirectus(install: PeerInstall, databaseUrl: string): Promise<RunningDirectus> {
  const db = new URL(databaseUrl);
  const port = await freePort();
  const token = randomBytes(24).toString('hex');
  // a folder of its own: Directus reads a .env from its working directory and keeps uploads and extensions there
  const cwd = mkdtempSync(path.join(tmpdir(), 'bo-bench-directus-'));
  const env: NodeJS.ProcessEnv = {
    PATH: `${path.dirname(install.node)}${path.delimiter}${process.env.PATH ?? ''}`,
    HOME: process.env.HOME,
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DB_CLIENT: 'pg',
    DB_HOST: db.hostname,
    DB_PORT: db.port || '5432',
    DB_DATABASE: decodeURIComponent(db.pathname.slice(1)),
    DB_USER: decodeURIComponent(db.username) || 'postgres',
    ...(db.password ? { DB_PASSWORD: decodeURIComponent(db.password) } : {}),
    KEY: randomBytes(16).toString('hex'),
    SECRET: randomBytes(32).toString('hex'),
    ADMIN_EMAIL: 'bench@example.com',
    ADMIN_PASSWORD: randomBytes(12).toString('hex'),
    ADMIN_TOKEN: token,
    CACHE_ENABLED: 'false',
    RATE_LIMITER_ENABLED: 'false',
    PRESSURE_LIMITER_ENABLED: 'false',
    TELEMETRY: 'false',
    SERVE_APP: 'false',
    WEBSOCKETS_ENABLED: 'false',
    EMAIL_VERIFY_SETUP: 'false',
    EXTENSIONS_PATH: path.join(cwd, 'extensions'),
    STORAGE_LOCAL_ROOT: path.join(cwd, 'uploads'),
    LOG_LEVEL: 'warn',
    LOG_STYLE: 'raw',
  };

  console.log('peer: directus bootstrap (its system tables beside ours, the admin user with a static token)');
  await cli(install, ['bootstrap'], env, cwd);

  console.log(`peer: directus start on http://127.0.0.1:${port} (Node ${install.nodeVersion})`);
  const child: ChildProcess = spawn(install.node, [install.directusCli, 'start'], {
    cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  const keep = (c: Buffer) => {
    log = (log + c.toString('utf8')).slice(-8000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  let exited: number | null | undefined;
  const exit = new Promise<void>((resolve) =>
    child.on('exit', (code) => {
      exited = code;
      resolve();
    }),
  );

  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (exited !== undefined) throw new Error(`directus start exited with ${exited}:\n${log.slice(-3000)}`);
    try {
      const r = await fetch(`${url}/server/ping`);
      if (r.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`directus did not answer /server/ping within 120 s:\n${log.slice(-3000)}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }

  const stop = async () => {
    if (exited === undefined) {
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exit;
      clearTimeout(killer);
    }
    rmSync(cwd, { recursive: true, force: true });
  };

  return {
    url,
    token,
    async registerCollection(table) {
      // An existing table becomes a collection once Directus has its meta row: PATCH on a
      // collection with no directus_collections row creates that row (what Directus's own app
      // does for a table it finds unmanaged); POST would try to create the table.
      const r = await fetch(`${url}/collections/${encodeURIComponent(table)}`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ meta: { note: 'registered by the peer benchmark' } }),
      });
      if (!r.ok) throw new Error(`registering ${table} as a Directus collection answered ${r.status}: ${await r.text()}`);
    },
    stop,
  };
}
