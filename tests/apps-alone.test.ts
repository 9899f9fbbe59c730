import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPrismaClient, type PrismaClient } from '@bo/db';
import { ALL_RIGHTS, createCaller, systemClock } from '@bo/domain';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { send } from './support/http.js';
import { Receiver, sleep, waitFor } from './support/receiver.js';
import { ApiClient } from './support/service.js';
import { type AppProcess, startAppProcess, startWorkerProcess } from './support/worker-process.js';

/**
 * Each app runs alone: api-v2, api-v3 and the worker as three separate
 * processes (their own src/main.ts) on one PostgreSQL database, as a deployment
 * that scales them apart runs them.
 */
let db: TestDatabase;
let prisma: PrismaClient;
let dataDir: string;
let v2Port: number;
let v3Port: number;
let v2: ApiClient;
let v3: ApiClient;
const processes: AppProcess[] = [];
const receiver = new Receiver();

const env = () => ({
  DATABASE_URL: db.url,
  // one data folder: the TLS certificate and stored files are shared
  DATA_DIR: dataDir,
  PORT: '0',
  HOST: '127.0.0.1',
  SEED_DEMO: 'false',
  RATE_LIMIT_PER_MINUTE: '0',
  WEBHOOK_TIMEOUT_MS: '1000',
  WEBHOOK_POLL_INTERVAL_MS: '25',
});

async function start(app: string, ready: RegExp): Promise<AppProcess & { ready: RegExpMatchArray }> {
  const p = await startAppProcess(app, env(), ready);
  processes.push(p);
  return p;
}

beforeAll(async () => {
  db = await createTestDatabase();
  dataDir = mkdtempSync(path.join(tmpdir(), 'bo-alone-'));
  // both at once on an empty data folder and database, as a deployment starts them
  const [a, b] = await Promise.all([
    start('api-v2', /API v2 on https:\/\/localhost:(\d+)/),
    start('api-v3', /API v3 on https:\/\/localhost:(\d+)/),
  ]);
  v2Port = Number(a.ready[1]);
  v3Port = Number(b.ready[1]);
  prisma = createPrismaClient(db.url, { max: 2 });
  const system = createCaller({ prisma, principal: { kind: 'system' }, clock: systemClock });
  await system.admin.environment.create({ name: 'acme' });
  await system.admin.user.create({ environment: 'acme', email: 'alone@acme.test', rights: ALL_RIGHTS });
  const token = await system.admin.token.create({ environment: 'acme', user: 'alone@acme.test' });
  v2 = new ApiClient(v2Port, 'acme.localhost', token);
  v3 = new ApiClient(v3Port, 'acme.localhost', token);
  await receiver.start();
});

afterAll(async () => {
  await Promise.all(
    processes.map(async (p) => {
      if (p.child.exitCode === null && p.child.signalCode === null) p.kill('SIGTERM');
      await p.exited;
    }),
  );
  await receiver.stop();
  await prisma?.$disconnect();
  await db?.drop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('each app runs alone, against one database', () => {
  it('api-v2 alone serves /api/v2 and /healthz, not /api/v3; api-v3 alone the other way round', async () => {
    for (const port of [v2Port, v3Port]) {
      const health = await send(port, 'GET', '/healthz', { host: 'localhost' });
      expect(health.status).toBe(200);
      expect(health.body).toEqual({ status: 'ok' });
    }
    expect((await v2.v2('GET', '/crm/organization?limit=1')).status).toBe(200);
    expect((await v3.v3('GET', '/organization.list')).status).toBe(200);
    expect((await v3.v2('GET', '/crm/organization?limit=1')).status).toBe(404);
    expect((await v2.v3('GET', '/organization.list')).status).toBe(404);
  });

  it('a change through api-v2 is read through api-v3, and its webhook is delivered by the lone worker', async () => {
    const sub = await v3.v3('POST', '/webhook.create', {
      url: receiver.url,
      events: ['organization.created', 'organization.updated'],
    });
    expect(sub.status, sub.text).toBe(201);

    const created = await v2.v2('POST', '/crm/organization', { name: 'Alone BV', relation_number: 'A-1' });
    expect(created.status, created.text).toBe(200);
    const id = (created.body as { data: { id: string } }).data.id;

    const read = await v3.v3('GET', `/organization.get/${encodeURIComponent(id)}`);
    expect(read.status, read.text).toBe(200);
    expect(read.body).toMatchObject({ id, name: 'Alone BV', relationNumber: 'A-1' });

    const put = await v2.v2('PUT', `/crm/organization/${id}`, { name: 'Alone Renamed BV' });
    expect(put.status, put.text).toBe(200);
    const again = await v3.v3('GET', `/organization.get/${encodeURIComponent(id)}`);
    expect(again.body).toMatchObject({ id, name: 'Alone Renamed BV' });

    // the API processes enqueue but never deliver: nothing arrives before a worker runs
    await sleep(750);
    expect(receiver.received).toHaveLength(0);

    const worker = await startWorkerProcess(env());
    processes.push(worker);
    await waitFor(() => receiver.received.length >= 2, 15_000, 'two deliveries from the worker');
    expect(receiver.received.map((r) => [r.body.type, r.body.data.id])).toEqual([
      ['organization.created', id],
      ['organization.updated', id],
    ]);
    // the worker records an attempt once the receiver has answered
    const statuses = await waitFor(
      async () => {
        const rows = await db.query<{ status: string }>(
          `SELECT d.status FROM webhook_delivery d JOIN event e ON e.id = d.event_id WHERE e.entity_id = $1 ORDER BY e.seq`,
          [id],
        );
        return rows.every((r) => r.status !== 'pending') ? rows.map((r) => r.status) : null;
      },
      10_000,
      'both deliveries recorded',
    );
    expect(statuses).toEqual(['succeeded', 'succeeded']);
  });
});
