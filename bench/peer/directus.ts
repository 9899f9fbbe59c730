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
  /**
   * declares an existing foreign key (`child.field` → `parent`) as a relation, with the alias field
   * `alias` on the parent listing the children (o2m), so `fields=*,<alias>.*` reads them
   */
  registerOneToMany(parent: string, alias: string, child: string, field: string): Promise<void>;
  /** stops and starts the process again (same settings, same token): with a frozen schema cache, what it reads at start counts */
  restart(): Promise<void>;
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
 * Directus on Node 22 as a child process on a loopback port, against a database of its own that
 * holds only its collections (bench/peer/database.ts; its directus_* tables are made there by
 * `directus bootstrap`), with the production settings its documentation recommends: the schema
 * cache on and frozen (`CACHE_SCHEMA`, `CACHE_SCHEMA_FREEZE_ENABLED`: the schema is read once,
 * not deep-copied per request). Off: the data cache (it would serve stored answers, which the
 * service may not do either), the rate limiter, the pressure limiter (it answers 503 when the
 * event loop is busy, which would count as fast replies), telemetry, websockets and the admin
 * app. Every setting is listed in bench/README.md.
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
    CACHE_SCHEMA: 'true',
    CACHE_SCHEMA_FREEZE_ENABLED: 'true',
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

  console.log('peer: directus bootstrap (its system tables in its own database, the admin user with a static token)');
  await cli(install, ['bootstrap'], env, cwd);

  const url = `http://127.0.0.1:${port}`;
  let process_: { child: ChildProcess; exit: Promise<void>; exited: () => boolean } | undefined;

  /** starts `directus start` and waits for /server/ping */
  const launch = async () => {
    console.log(`peer: directus start on ${url} (Node ${install.nodeVersion})`);
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
    process_ = { child, exit, exited: () => exited !== undefined };
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
  };

  const halt = async () => {
    const p = process_;
    if (p && !p.exited()) {
      p.child.kill('SIGTERM');
      const killer = setTimeout(() => p.child.kill('SIGKILL'), 10_000);
      await p.exit;
      clearTimeout(killer);
    }
  };

  const stop = async () => {
    await halt();
    rmSync(cwd, { recursive: true, force: true });
  };

  await launch();

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
    async registerOneToMany(parent, alias, child, field) {
      const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
      const aliasField = await fetch(`${url}/fields/${encodeURIComponent(parent)}`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ field: alias, type: 'alias', meta: { special: ['o2m'], interface: 'list-o2m' } }),
      });
      if (!aliasField.ok)
        throw new Error(`the o2m field ${parent}.${alias} answered ${aliasField.status}: ${await aliasField.text()}`);
      // Directus reads the foreign key itself; the relation then needs only its o2m side named
      const relation = await fetch(`${url}/relations/${encodeURIComponent(child)}/${encodeURIComponent(field)}`, {
        method: 'PATCH',
        headers,
        body: JSON.stringify({ meta: { one_field: alias } }),
      });
      if (!relation.ok) throw new Error(`the relation ${child}.${field} answered ${relation.status}: ${await relation.text()}`);
    },
    async restart() {
      await halt();
      await launch();
    },
    stop,
  };
}
