import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:https';
import { Agent } from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { applyMigrations, createPrismaClient } from '@bo/db';
import { ALL_RIGHTS, createCaller, systemClock } from '@bo/domain';

const ADMIN_URL = process.env.TEST_PG_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

export interface BenchDatabase {
  url: string;
  dataDir: string;
  drop(): Promise<void>;
}

/** A fresh, migrated database on the local PostgreSQL server and a scratch data folder. */
export async function createBenchDatabase(): Promise<BenchDatabase> {
  const name = `bo_bench_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const u = new URL(ADMIN_URL);
  u.pathname = `/${name}`;
  const url = u.toString();
  await applyMigrations(url);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bo-bench-'));
  return {
    url,
    dataDir,
    async drop() {
      const c = new pg.Client({ connectionString: ADMIN_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await c.end();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** An environment with an all-rights user and a token, made through the in-process admin procedures. */
export async function createToken(url: string, environment: string): Promise<{ key: string; secret: string }> {
  const prisma = createPrismaClient(url, { max: 2 });
  const system = createCaller({ prisma, principal: { kind: 'system' }, clock: systemClock });
  await system.admin.environment.create({ name: environment });
  await system.admin.user.create({ environment, email: `bench@${environment}.test`, rights: ALL_RIGHTS });
  const token = await system.admin.token.create({ environment, user: `bench@${environment}.test` });
  await prisma.$disconnect();
  return token;
}

export const agent = new Agent({ keepAlive: true, rejectUnauthorized: false, maxSockets: 16 });

/** One JSON request over HTTPS with keep-alive; answers status and parsed body. */
export function call(port: number, host: string, headers: Record<string, string>, method: string, p: string, body?: unknown) {
  const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
  return new Promise<{ status: number; body: unknown }>((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method,
        path: p,
        agent,
        headers: {
          host,
          ...headers,
          ...(payload ? { 'content-type': 'application/json', 'content-length': String(payload.length) } : {}),
        },
      },
      (res) => {
        const parts: Buffer[] = [];
        res.on('data', (c: Buffer) => parts.push(c));
        res.on('end', () => {
          const text = Buffer.concat(parts).toString('utf8');
          resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}
