import { randomBytes, randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import pg from 'pg';
import { createPrismaClient, scopeToEnvironment } from '@bo/db';
import { createCaller, systemClock } from '@bo/domain';
import { databaseBackendsCpuMs } from '../support/backend-cpu.js';
import { startCreateService } from '../support/baseline.js';

/**
 * Sequential cost of one organization create (Node CPU and wall time per create), from plain pg
 * to the whole domain procedure, to see where a create's time goes without HTTP:
 *   npx tsx bench/tools/micro-create.ts [count] [profile-of-the-last-step.cpuprofile]
 */
const { bench, env } = await startCreateService();
const pool = new pg.Pool({ connectionString: bench.url, max: 2 });
const prisma = createPrismaClient(bench.url, { max: 2 });
const scoped = scopeToEnvironment(prisma, env.id);
const N = Number(process.argv[2] ?? 300);
const INSERT = `INSERT INTO organization (id, environment_id, name, email, relation_number, created_at, updated_at)
  VALUES ($1, $2, $3, $4, $5, now(), now()) RETURNING *`;
const EVENT = `INSERT INTO event (id, environment_id, type, entity_type, entity_id, data, occurred_at)
  VALUES ($1::uuid, $2, 'organization.created', 'organization', $3, $4::jsonb, now())`;
const newId = () => `organization:${randomBytes(16).toString('hex')}`;
const database = new URL(bench.url).pathname.slice(1);
/** CPU ms of every PostgreSQL backend of the bench database so far */
async function backendsMs(): Promise<number> {
  return [...(await databaseBackendsCpuMs(bench.pool, database)).values()].reduce((sum, ms) => sum + ms, 0);
}
async function time(label: string, f: (i: number) => Promise<unknown>, profileTo?: string) {
  for (let i = 0; i < 20; i += 1) await f(i);
  const session = profileTo ? new Session() : null;
  if (session) {
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 100 });
    await session.post('Profiler.start');
  }
  const b0 = await backendsMs();
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < N; i += 1) await f(i);
  const pgMs = ((await backendsMs()) - b0) / N;
  const ms = (performance.now() - t0) / N;
  const cpu = process.cpuUsage(c0);
  if (session && profileTo) writeFileSync(profileTo, JSON.stringify((await session.post('Profiler.stop')).profile));
  console.log(
    `${label.padEnd(52)} wall ${ms.toFixed(2)} ms  node cpu ${((cpu.user + cpu.system) / 1000 / N).toFixed(2)} ms  postgres ${pgMs.toFixed(2)} ms per create`,
  );
}
await time('pg: BEGIN, INSERT, event, COMMIT', async (i) => {
  const c = await pool.connect();
  try {
    await c.query('BEGIN');
    const id = newId();
    const r = await c.query(INSERT, [id, env.id, `Micro ${i}`, 'a@example.com', `R-${i}`]);
    await c.query(EVENT, [randomUUID(), env.id, id, JSON.stringify(r.rows[0])]);
    await c.query('COMMIT');
  } finally {
    c.release();
  }
});
await time('prisma $transaction, the same two raw statements', (i) =>
  prisma.$transaction(async (tx) => {
    const id = newId();
    const r = await tx.$queryRawUnsafe<unknown[]>(INSERT, id, env.id, `Micro ${i}`, 'a@example.com', `R-${i}`);
    await tx.$executeRawUnsafe(EVENT, randomUUID(), env.id, id, JSON.stringify(r[0]));
  }),
);
await time('scoped prisma $transaction, create + event.create', (i) =>
  scoped.$transaction(async (tx) => {
    const id = newId();
    await tx.organization.create({ data: { id, environmentId: '', name: `Micro ${i}`, email: 'a@example.com' } });
    await tx.event.create({
      data: {
        id: randomUUID(),
        environmentId: '',
        type: 'organization.created',
        entityType: 'organization',
        entityId: id,
        data: {},
      },
    });
  }),
);
const principal = await createCaller({ prisma, principal: null, clock: systemClock }).auth.authenticate({
  environment: 'bench',
  key: env.v2['authentication-key'] as string,
  secret: env.v2['authentication-secret'] as string,
});
const caller = createCaller({ prisma, principal, clock: systemClock });
await time('domain: crm.organization.create, name only', (i) => caller.crm.organization.create({ data: { name: `Micro ${i}` } }));
await time(
  'domain: crm.organization.create, the bench body',
  (i) =>
    caller.crm.organization.create({
      data: {
        name: `Micro ${i}`,
        relationNumber: `R-${i}`,
        email: 'a@example.com',
        visitingAddress: { line1: 'Main 1', postalCode: '3511 AA', locality: 'Utrecht', countryCode: 'NL' },
        customFields: [{ name: 'tier', value: 'gold' }],
      },
    }),
  process.argv[3],
);
await pool.end();
await prisma.$disconnect();
await bench.stop();
process.exit(0);
