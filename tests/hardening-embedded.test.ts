import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startService } from '@bo/server';
import { send } from './support/http.js';
import { alive } from './support/worker-process.js';

/**
 * The embedded default (PGlite behind one loopback socket) must survive idling: every
 * pool on it closes idle connections and opens new ones onto the same single backend.
 * And the README's start command must stop cleanly on SIGTERM to the process it started.
 */
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function dataDir(): string {
  const d = mkdtempSync(path.join(tmpdir(), 'bo-harden-'));
  dirs.push(d);
  return d;
}

describe('embedded default', () => {
  it('an embedded service idle longer than every pool’s idle timeout still answers, on every door', async () => {
    const service = await startService({
      port: 0,
      host: '127.0.0.1',
      httpPort: null,
      databaseUrl: undefined,
      dataDir: dataDir(),
      embeddedDbPort: 0,
      tlsCert: undefined,
      tlsKey: undefined,
      trustProxy: false,
      seedDemo: true,
      logLevel: 'silent',
      runWorker: false,
      // the rate limiter's pool uses a named statement: after an idle reconnect it met its old one
      rateLimitPerMinute: 600,
      limits: { dbIdleTimeoutMs: 150, authFailuresPerMinute: 30 },
    });
    try {
      const token = service.demo?.token;
      expect(token).toBeTruthy();
      const calls = [
        () =>
          send(service.port, 'GET', '/api/v2/crm/organization?limit=2', {
            host: 'demo.localhost',
            headers: { 'authentication-key': token?.key ?? '', 'authentication-secret': token?.secret ?? '' },
          }),
        () =>
          send(service.port, 'GET', '/api/v3/organization.list', {
            host: 'demo.localhost',
            headers: { authorization: `Bearer ${token?.key}:${token?.secret}` },
          }),
        () =>
          send(service.port, 'POST', '/trpc/crm.organization.create', {
            host: 'demo.localhost',
            headers: { authorization: `Bearer ${token?.key}:${token?.secret}` },
            body: { data: { name: `After idle ${Math.random()}` } },
          }),
        () =>
          send(service.port, 'GET', '/api/v2/crm/organization', {
            host: 'demo.localhost',
            headers: { 'authentication-key': token?.key ?? '', 'authentication-secret': 'wrong' },
          }),
      ];
      const expected = [200, 200, 200, 401];
      for (let round = 0; round < 3; round += 1) {
        const statuses: number[] = [];
        for (const call of calls) statuses.push((await call()).status);
        expect(statuses, `round ${round}`).toEqual(expected);
        // idle: several times every pool's idle timeout, so each has closed its connections
        await new Promise((r) => setTimeout(r, 800));
      }
      expect((await send(service.port, 'GET', '/healthz', { host: 'localhost' })).status).toBe(200);
    } finally {
      await service.stop();
    }
  }, 120_000);
});

function descendants(pid: number): number[] {
  let children: number[] = [];
  try {
    children = execFileSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map(Number);
  } catch {
    // no children
  }
  return children.flatMap((c) => [c, ...descendants(c)]);
}

describe('the README start command', () => {
  it('SIGTERM to the process the start command started stops the whole service cleanly within 10 s', async () => {
    const dir = dataDir();
    const root = path.resolve(import.meta.dirname, '..');
    const child = spawn('npx', ['-y', 'pnpm@10.34.9', 'start'], {
      cwd: root,
      env: { ...process.env, DATA_DIR: dir, PORT: '0', LOG_LEVEL: 'info', NODE_ENV: 'production' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString('utf8');
    });
    child.stderr.on('data', (c: Buffer) => {
      out += c.toString('utf8');
    });
    const tree: number[] = [];
    try {
      const started = performance.now();
      while (!out.includes('Business operations service on') && performance.now() - started < 90_000) {
        await new Promise((r) => setTimeout(r, 200));
      }
      expect(out).toContain('Business operations service on');
      expect(existsSync(path.join(dir, 'embedded-db.json'))).toBe(true);
      tree.push(child.pid as number, ...descendants(child.pid as number));
      expect(tree.length).toBeGreaterThan(2);
      // the compiled start: node runs the built bundle through scripts/start.mjs; nothing transpiles at start
      const commands = tree.map((pid) => {
        try {
          return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
        } catch {
          return '';
        }
      });
      expect(commands.some((c) => c.includes('scripts/start.mjs'))).toBe(true);
      expect(commands.filter((c) => /tsx/.test(c))).toEqual([]);

      const killedAt = performance.now();
      process.kill(child.pid as number, 'SIGTERM');
      while (tree.some(alive) && performance.now() - killedAt < 15_000) await new Promise((r) => setTimeout(r, 100));
      const took = performance.now() - killedAt;
      expect(tree.filter(alive)).toEqual([]);
      expect(took).toBeLessThan(10_000);
      // a clean stop: the embedded database was closed and its files released
      expect(out).toMatch(/stopping/);
      expect(existsSync(path.join(dir, 'embedded-db.json'))).toBe(false);
      expect(existsSync(path.join(dir, 'pglite.lock'))).toBe(false);
    } finally {
      for (const pid of tree) if (alive(pid)) process.kill(pid, 'SIGKILL');
    }
  }, 150_000);
});
