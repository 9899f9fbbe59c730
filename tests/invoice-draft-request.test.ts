import { tenantSql } from '@bo/db';
import { invoiceDraftRequestJob } from '@bo/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { v2Create } from './support/projects.js';
import { type ApiClient, startTestService, type TestService } from './support/service.js';
import { documentValidator, expectProblem, expectViolations } from './support/v3.js';

let t: TestService;
let acme: ApiClient;
let reader: ApiClient;
let nobody: ApiClient;
let validate: (name: string, value: unknown) => void;

type Status = {
  id: string;
  status: string;
  projects: { total: number; pending: number; drafted: number; skipped: number; failed: number };
  items: { projectId: string; status: string; invoiceId: string | null; message: string | null }[];
};

beforeAll(async () => {
  // the worker runs in the service: the request's job is worked as in production
  t = await startTestService({ runWorker: true });
  acme = await t.environment('acme');
  reader = await t.user('acme', 'reader@acme.test', { invoices: 'read' });
  nobody = await t.user('acme', 'nobody@acme.test', {});
  validate = await documentValidator(acme);
});
afterAll(() => t?.stop());

async function service(projectId: string, body: Record<string, unknown>) {
  const res = await acme.v3('POST', '/projectService.create', { projectId, name: 'S', ...body });
  expect(res.status, res.text).toBe(201);
}

async function waitUntilDone(id: string): Promise<Status> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const res = await reader.v3('GET', `/invoiceDraftRequest.get/${id}`);
    expect(res.status, res.text).toBe(200);
    const status = res.body as Status;
    if (status.status === 'done' || Date.now() > deadline) return status;
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('invoiceDraftRequest.create and invoiceDraftRequest.get', () => {
  it('create answers 201 with the queued request; the worker drafts invoices and get shows the progress counts', async () => {
    const fixed = await v2Create(acme, '/projects/project', { name: 'Fixed', billable: true });
    await service(fixed, { invoiceMethod: 'fixed_price', price: 1200, amount: 2 });
    // a monthly subscription from 1 May: by 30 June two cycles have begun, one line each
    await service(fixed, { invoiceMethod: 'subscription', price: 50, startDate: '2026-05-01' });
    const hoursOnly = await v2Create(acme, '/projects/project', { name: 'Hours only', billable: true });
    await service(hoursOnly, { invoiceMethod: 'time_and_expenses' });
    const internal = await v2Create(acme, '/projects/project', { name: 'Internal', billable: false });

    const res = await acme.v3('POST', '/invoiceDraftRequest.create', {
      projectIds: [fixed, hoursOnly, internal],
      invoiceDate: '2026-06-30',
    });
    expect(res.status, res.text).toBe(201);
    validate('Invoice.Draft.Request.Status', res.body);
    const created = res.body as Status;
    expect(created).toMatchObject({ status: 'queued', projects: { total: 3, pending: 3, drafted: 0, skipped: 0, failed: 0 } });

    const done = await waitUntilDone(created.id);
    validate('Invoice.Draft.Request.Status', done);
    expect(done).toMatchObject({ status: 'done', projects: { total: 3, pending: 0, drafted: 1, skipped: 2, failed: 0 } });
    const drafted = done.items.find((i) => i.projectId === fixed);
    expect(drafted?.status).toBe('drafted');
    const invoices = await t.db.query<{ status: string; total_amount: string; lines: string }>(
      `SELECT i.status, i.total_amount::text, (SELECT count(*)::text FROM invoice_line l WHERE l.invoice_id = i.id) AS lines
       FROM invoice i WHERE i.id = $1`,
      [drafted?.invoiceId],
    );
    expect(invoices).toEqual([{ status: 'draft', total_amount: '2500.00', lines: '3' }]);
    // every create is an event: the drafted invoice is announced in the same transaction
    const events = await t.db.query<{ type: string; data: { totalExcl: string; lines: unknown[] } }>(
      `SELECT type, data FROM event WHERE entity_id = $1`,
      [drafted?.invoiceId],
    );
    expect(events).toEqual([
      { type: 'invoice.created', data: expect.objectContaining({ totalExcl: '2500.00', lines: expect.any(Array) }) },
    ]);
    expect(done.items.find((i) => i.projectId === hoursOnly)).toMatchObject({ status: 'skipped', message: 'nothing to invoice' });
    expect(done.items.find((i) => i.projectId === internal)).toMatchObject({
      status: 'skipped',
      message: expect.stringContaining('internal'),
    });

    // a second request for the same date finds everything billed already: nothing is drafted twice
    const again = (await acme.v3('POST', '/invoiceDraftRequest.create', { projectIds: [fixed], invoiceDate: '2026-06-30' }))
      .body as Status;
    expect((await waitUntilDone(again.id)).projects).toMatchObject({ drafted: 0, skipped: 1 });
    expect(await t.db.query(`SELECT count(*)::int AS n FROM invoice WHERE project_id = $1`, [fixed])).toEqual([{ n: 1 }]);
  });

  it('create: 400 malformed, 403 without right, 422 for unknown or repeated projects (nothing queued)', async () => {
    const project = await v2Create(acme, '/projects/project', { name: 'P' });
    const before = await t.db.query('SELECT count(*)::int AS n FROM invoice_draft_request');
    expectProblem(await acme.v3('POST', '/invoiceDraftRequest.create', { projectIds: project }), 400);
    expectProblem(await acme.v3('POST', '/invoiceDraftRequest.create', { projectIds: [project], draft: true }), 400);
    expectProblem(await reader.v3('POST', '/invoiceDraftRequest.create', { projectIds: [project] }), 403);
    expectViolations(await acme.v3('POST', '/invoiceDraftRequest.create', { projectIds: [] }), ['projectIds']);
    expectViolations(await acme.v3('POST', '/invoiceDraftRequest.create', { projectIds: [project, 'project:missing'] }), [
      'projectIds.1',
    ]);
    expectViolations(await acme.v3('POST', '/invoiceDraftRequest.create', { projectIds: [project, project] }), ['projectIds.1']);
    expect(await t.db.query('SELECT count(*)::int AS n FROM invoice_draft_request')).toEqual(before);
  });

  it("a job is queued through its write's tenant reader: there when the write commits, never when it rolls back", async () => {
    const [env] = await t.db.query<{ id: string }>(`SELECT id FROM environment WHERE name = 'acme'`);
    const environmentId = env?.id as string;
    const sql = tenantSql(t.service.database.prisma, environmentId);
    if (!sql.transaction) throw new Error('the test database offers a transaction of our own');
    const jobs = t.service.worker.jobs;
    const rolledBack = `reader-rolled-back-${Date.now()}`;
    const committed = `reader-committed-${Date.now()}`;
    await expect(
      sql.transaction(async (reader) => {
        await jobs.send(
          invoiceDraftRequestJob,
          { environmentId, requestId: rolledBack },
          { sql: reader, singletonKey: rolledBack },
        );
        throw new Error('the write fails after queuing its job');
      }),
    ).rejects.toThrow('the write fails after queuing its job');
    const id = await sql.transaction((reader) =>
      jobs.send(invoiceDraftRequestJob, { environmentId, requestId: committed }, { sql: reader, singletonKey: committed }),
    );
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const queued = await t.db.query<{ id: string; key: string; data: { requestId: string } }>(
      'SELECT id::text AS id, singleton_key AS key, data FROM pgboss.job WHERE singleton_key = ANY($1::text[])',
      [[rolledBack, committed]],
    );
    expect(queued).toEqual([{ id, key: committed, data: expect.objectContaining({ environmentId, requestId: committed }) }]);
  });

  it('get: 404 for a missing request, 403 without right', async () => {
    expectProblem(await reader.v3('GET', '/invoiceDraftRequest.get/invoicedraftrequest:missing'), 404);
    expectProblem(await nobody.v3('GET', '/invoiceDraftRequest.get/invoicedraftrequest:missing'), 403);
  });
});
