import { mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { Agent, request } from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configFromEnv, processCount } from '@bo/runtime';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { type AppProcess, alive, startCompiledStart } from './support/worker-process.js';

/**
 * WEB_CONCURRENCY=2 on a PostgreSQL server: two HTTP processes behind one port, started
 * by the README's compiled start (`node scripts/start.mjs`). The wire carries no process
 * id, so the test finds which process holds each of its connections from the outside:
 * the processes' pids from the primary's start-up log lines, their sockets from /proc.
 */
let db: TestDatabase;
let start: AppProcess;
const out = () => start.output();
const dirs: string[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  const dir = mkdtempSync(path.join(tmpdir(), 'bo-cluster-'));
  dirs.push(dir);
  start = await startCompiledStart(
    { DATABASE_URL: db.url, WEB_CONCURRENCY: '2', DATA_DIR: dir, PORT: '0', METRICS_PORT: '0' },
    /process 2 of 2 \(pid \d+\) serves/,
  );
}, 150_000);

afterAll(async () => {
  if (start?.child.exitCode === null) start.kill('SIGKILL');
  for (const pid of workerPids()) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {}
  }
  await db?.drop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function workerPids(): number[] {
  return [...out().matchAll(/process \d of 2 \(pid (\d+)\) serves on port (\d+)/g)].map((m) => Number(m[1]));
}

function port(): number {
  return Number(/serves on port (\d+)/.exec(out())?.[1]);
}

/** The primary's /metrics (METRICS_PORT): the sum over its processes. */
function scrapeMetrics(): Promise<string> {
  const metricsPort = Number(/metrics of all 2 processes on http:\/\/[^:]+:(\d+)\/metrics/.exec(out())?.[1]);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: metricsPort, path: '/metrics', agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    });
    req.on('error', reject);
    req.end();
  });
}

/** One kept-alive connection: every request on it goes to the same server process. */
function connection() {
  const agent = new Agent({ keepAlive: true, maxSockets: 1, rejectUnauthorized: false });
  const [, key, secret] = /Authentication-Key: (\w+)' -H 'Authentication-Secret: ([^']+)'/.exec(out()) ?? [];
  let localPort = 0;
  const call = (method: string, p: string, body?: unknown) =>
    new Promise<{ status: number; body: { data: unknown } }>((resolve, reject) => {
      const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
      const req = request(
        {
          host: '127.0.0.1',
          port: port(),
          method,
          path: `/api/v2${p}`,
          agent,
          headers: {
            host: `demo.localhost:${port()}`,
            'authentication-key': key ?? '',
            'authentication-secret': secret ?? '',
            ...(payload ? { 'content-type': 'application/json', 'content-length': String(payload.length) } : {}),
          },
        },
        (res) => {
          localPort = res.socket.localPort ?? 0;
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) }));
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  return { call, localPort: () => localPort, close: () => agent.destroy() };
}

/** The pid of the server process holding the accepted socket whose peer is our local port, from /proc/net/tcp and fds. */
function serverPidOf(clientPort: number, pids: number[]): number | null {
  const hex = (n: number) => n.toString(16).toUpperCase().padStart(4, '0');
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols.length < 10) continue;
      if (cols[1]?.endsWith(`:${hex(port())}`) && cols[2]?.endsWith(`:${hex(clientPort)}`)) inodes.add(cols[9] ?? '');
    }
  }
  for (const pid of pids) {
    for (const fd of readdirSync(`/proc/${pid}/fd`)) {
      let target = '';
      try {
        target = readlinkSync(`/proc/${pid}/fd/${fd}`);
      } catch {
        continue;
      }
      const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
      if (inode && inodes.has(inode)) return pid;
    }
  }
  return null;
}

describe.skipIf(process.platform !== 'linux')('WEB_CONCURRENCY', () => {
  it('two processes answer on one port, a write in one is read in the other, a dead one is replaced, and SIGTERM stops all within 10 s', async () => {
    expect(out()).toMatch(/starting 2 processes/);
    const pids = workerPids();
    expect(pids).toHaveLength(2);
    expect(new Set(pids).size).toBe(2);
    expect(pids.every(alive)).toBe(true);

    // eight connections: the primary hands them round-robin, so both processes hold some
    const conns = Array.from({ length: 8 }, () => connection());
    const byPid = new Map<number, ReturnType<typeof connection>>();
    for (const c of conns) {
      const res = await c.call('GET', '/crm/organization?limit=1');
      expect(res.status).toBe(200);
      const pid = serverPidOf(c.localPort(), pids);
      expect(pid).not.toBeNull();
      if (pid !== null && !byPid.has(pid)) byPid.set(pid, c);
    }
    expect([...byPid.keys()].sort()).toEqual([...pids].sort());

    // written through one process, read through the other
    const writer = byPid.get(pids[0] as number);
    const reader = byPid.get(pids[1] as number);
    if (!writer || !reader) throw new Error('a process held none of the connections');
    const created = await writer.call('POST', '/crm/organization', { name: 'Clustered BV' });
    expect(created.status).toBe(200);
    const id = (created.body.data as { id: string }).id;
    const read = await reader.call('GET', `/crm/organization/${id}`);
    expect(read.status).toBe(200);
    expect(read.body.data).toMatchObject({ name: 'Clustered BV' });
    for (const c of conns) c.close();

    // one scrape of the primary's metrics port counts the requests of both processes
    const metrics = await scrapeMetrics();
    const count = (method: string, route: string) =>
      Number(
        new RegExp(`^bo_http_requests_total\\{door="v2",method="${method}",route="${route}",status="200"\\} (\\d+)$`, 'm').exec(
          metrics,
        )?.[1],
      );
    expect(count('GET', '/api/v2/crm/organization')).toBe(8);
    expect(count('POST', '/api/v2/crm/organization')).toBe(1);
    expect(count('GET', '/api/v2/crm/organization/:id')).toBe(1);

    // a process that dies is replaced under its number; the service keeps answering meanwhile
    process.kill(pids[1] as number, 'SIGKILL');
    const killed = performance.now();
    while (workerPids().length < 3 && performance.now() - killed < 30_000) await new Promise((r) => setTimeout(r, 100));
    const replacement = workerPids()[2] as number;
    expect(out()).toMatch(new RegExp(`process 2 of 2 \\(pid ${replacement}\\) serves`));
    expect(alive(replacement)).toBe(true);
    const again = connection();
    expect((await again.call('GET', `/crm/organization/${id}`)).status).toBe(200);
    again.close();

    const tree = [start.child.pid as number, pids[0] as number, replacement];
    const killedAt = performance.now();
    start.kill('SIGTERM');
    while (tree.some(alive) && performance.now() - killedAt < 15_000) await new Promise((r) => setTimeout(r, 100));
    expect(tree.filter(alive)).toEqual([]);
    expect(performance.now() - killedAt).toBeLessThan(10_000);
    expect(out()).toMatch(/SIGTERM: stopping 2 processes/);
  }, 60_000);

  it('on the embedded database WEB_CONCURRENCY above 1 runs one process, with a warning', () => {
    const warnings: string[] = [];
    const n = processCount(configFromEnv({ WEB_CONCURRENCY: '4', DATA_DIR: tmpdir() }), (m) => warnings.push(m));
    expect(n).toBe(1);
    expect(warnings.join('\n')).toMatch(/WEB_CONCURRENCY=4 ignored: the embedded database/);
    expect(processCount(configFromEnv({ WEB_CONCURRENCY: '4', DATABASE_URL: db.url }), () => {})).toBe(4);
  });
});
