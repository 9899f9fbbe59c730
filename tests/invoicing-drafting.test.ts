import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { v2Create, v2Get } from './support/projects.js';
import { type ApiClient, startTestService, type TestService } from './support/service.js';
import { startWorkerProcess, type WorkerProcess } from './support/worker-process.js';

let t: TestService;
let acme: ApiClient;
let debtor: string;
let second: WorkerProcess | null = null;

type Status = {
  id: string;
  status: string;
  projects: { total: number; drafted: number; skipped: number; failed: number };
  items: { projectId: string; status: string; invoiceId: string | null; message: string | null }[];
};

beforeAll(async () => {
  // one worker in the service's process, and (for the race) a second one in its own process
  t = await startTestService({ runWorker: true });
  acme = await t.environment('acme');
  debtor = await v2Create(acme, '/crm/organization', { name: 'Drafted Debtor BV' });
});
afterAll(async () => {
  if (second) {
    second.kill('SIGTERM');
    await second.exited;
  }
  await t?.stop();
});

async function project(name: string): Promise<string> {
  return v2Create(acme, '/projects/project', { name, organization_id: debtor, billable: true });
}

async function service(projectId: string, body: Record<string, unknown>): Promise<string> {
  const res = await acme.v3('POST', '/projectService.create', { projectId, name: 'Service', ...body });
  expect(res.status, res.text).toBe(201);
  return (res.body as { id: string }).id;
}

/** a booked cost of the project (purchases are read-only in v2; the costs area books them) */
async function purchase(projectId: string, supplier: string, amount: number, invoiceDate: string): Promise<void> {
  await t.db.query(
    `INSERT INTO purchase (id, environment_id, project_id, supplier, invoice_amount, invoice_date, updated_at)
     SELECT 'purchase:' || md5(random()::text), environment_id, id, $2, $3, $4::date, now() FROM project WHERE id = $1`,
    [projectId, supplier, amount, invoiceDate],
  );
}

let booker: { employee: string; hourType: string } | null = null;

/** an hour registration in a given approval state (the hours area books them; here only their drafting is tested) */
async function hour(
  projectId: string,
  serviceId: string,
  o: { minutes: number; tariff: number; date: string; status?: string; billable?: boolean },
): Promise<string> {
  if (!booker) {
    const employee = await v2Create(acme, '/hrm/employee', { name: 'Booked Employee' });
    const types = await acme.v2('GET', '/hours/hourstype?limit=1');
    booker = { employee, hourType: (types.body as { data: { id: string }[] }).data[0]?.id as string };
  }
  const id = `hours:${Math.random().toString(16).slice(2)}${Date.now().toString(16)}`;
  await t.db.query(
    `INSERT INTO hour_registration (id, environment_id, employee_id, project_id, project_service_id, hour_type_id, start_date,
                                    duration_minutes, billable, approval_status, tariff, updated_at)
     SELECT $1, environment_id, $2, id, $3, $4, $5::date, $6, $7, $8, $9, now() FROM project WHERE id = $10`,
    [
      id,
      booker.employee,
      serviceId,
      booker.hourType,
      o.date,
      o.minutes,
      o.billable ?? true,
      o.status ?? 'approved',
      o.tariff,
      projectId,
    ],
  );
  return id;
}

async function invoiceOfHour(id: string): Promise<string | null> {
  return (await t.db.query<{ invoice_id: string | null }>('SELECT invoice_id FROM hour_registration WHERE id = $1', [id]))[0]
    ?.invoice_id as string | null;
}

async function requestDrafts(projectIds: string[], invoiceDate: string): Promise<string> {
  const res = await acme.v3('POST', '/invoiceDraftRequest.create', { projectIds, invoiceDate });
  expect(res.status, res.text).toBe(201);
  return (res.body as Status).id;
}

async function waitUntilDone(id: string): Promise<Status> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const res = await acme.v3('GET', `/invoiceDraftRequest.get/${id}`);
    expect(res.status, res.text).toBe(200);
    const status = res.body as Status;
    if (status.status === 'done' || Date.now() > deadline) return status;
    await new Promise((r) => setTimeout(r, 100));
  }
}

type Line = {
  description: string;
  amount: number;
  price: number;
  total: number;
  service_id: string | null;
  project_id: string | null;
  source_type: string | null;
};

async function linesOf(invoiceId: string | null): Promise<Line[]> {
  expect(invoiceId).toBeTruthy();
  return (await v2Get<{ invoice_lines: Line[] }>(acme, `/invoices/invoice/${invoiceId}`)).invoice_lines;
}

async function draftOne(projectId: string, invoiceDate: string) {
  const done = await waitUntilDone(await requestDrafts([projectId], invoiceDate));
  return done.items[0] as Status['items'][number];
}

describe('drafting per invoice method', () => {
  it('fixed price: the price × amount, once', async () => {
    const p = await project('Fixed');
    const s = await service(p, { invoiceMethod: 'fixed_price', price: 1500, amount: 2 });
    const item = await draftOne(p, '2026-06-30');
    expect(item.status).toBe('drafted');
    expect(await linesOf(item.invoiceId)).toEqual([
      expect.objectContaining({ amount: 2, price: 1500, total: 3000, service_id: s, project_id: p, source_type: 'fixed_price' }),
    ]);
    expect((await draftOne(p, '2026-12-31')).status).toBe('skipped');
  });

  it('fixed price in installments: the installments that have come due, each once', async () => {
    const p = await project('Installments');
    const s = await service(p, {
      invoiceMethod: 'fixed_price',
      price: 1000,
      amount: 1,
      invoiceInInstallments: true,
      installments: [
        { name: 'Start', percentage: 30, expirationDate: '2026-03-01' },
        { name: 'Delivery', percentage: 50, expirationDate: '2026-06-01' },
        { name: 'Final', price: 200, expirationDate: '2026-09-01' },
      ],
    });
    // what is ready to be invoiced: the installments come due by today (all three dates have passed)
    expect(await v2Get(acme, `/invoices/proposition/${p}`)).toMatchObject({
      total_terms: 1000,
      total_fixed: 0,
      project: { id: p },
    });
    const first = await draftOne(p, '2026-06-15');
    expect(await v2Get(acme, `/invoices/proposition/${p}`)).toMatchObject({ total_terms: 200 });
    expect((await linesOf(first.invoiceId)).map((l) => [l.description, l.total, l.service_id, l.source_type])).toEqual([
      ['Service: Start', 300, s, 'installment'],
      ['Service: Delivery', 500, s, 'installment'],
    ]);
    const terms = await v2Get<{ status: string; price: number; label: string }[]>(acme, '/projects/reverseinvoice');
    const mine = terms.filter((r) => ['Start', 'Delivery', 'Final'].includes(r.label));
    expect(mine.map((r) => [r.label, r.status, r.price])).toEqual([
      ['Start', 'concept', 300],
      ['Delivery', 'concept', 500],
      ['Final', 'open', 200],
    ]);
    const later = await draftOne(p, '2026-09-30');
    expect((await linesOf(later.invoiceId)).map((l) => l.total)).toEqual([200]);
  });

  it('subscription: one line per cycle that has begun (default Month; Quarter when set)', async () => {
    const p = await project('Subscriptions');
    await service(p, { invoiceMethod: 'subscription', price: 40, startDate: '2026-01-15' });
    await service(p, { invoiceMethod: 'subscription', price: 300, startDate: '2026-01-01', subscriptionCycle: 'quarter' });
    const item = await draftOne(p, '2026-03-31');
    const lines = await linesOf(item.invoiceId);
    expect(lines.map((l) => [l.description, l.total])).toEqual([
      ['Service (2026-01-15 to 2026-02-14)', 40],
      ['Service (2026-02-15 to 2026-03-14)', 40],
      ['Service (2026-03-15 to 2026-04-14)', 40],
      ['Service (2026-01-01 to 2026-03-31)', 300],
    ]);
    // the next draft bills only the cycles begun since
    const next = await draftOne(p, '2026-04-20');
    expect((await linesOf(next.invoiceId)).map((l) => [l.description, l.total])).toEqual([
      ['Service (2026-04-15 to 2026-05-14)', 40],
      ['Service (2026-04-01 to 2026-06-30)', 300],
    ]);
  });

  it('costs: the booked costs (project purchases) on the time-and-expenses service', async () => {
    const p = await project('Costs');
    const s = await service(p, { invoiceMethod: 'time_and_expenses' });
    await purchase(p, 'Paper Co', 123.45, '2026-05-01');
    await purchase(p, 'Later Co', 10, '2026-08-01');
    const item = await draftOne(p, '2026-06-30');
    expect((await linesOf(item.invoiceId)).map((l) => [l.description, l.total, l.service_id, l.source_type])).toEqual([
      ['Costs: Paper Co', 123.45, s, 'purchase'],
    ]);
  });

  it('hours: approved, billable, not yet invoiced hours × their tariff, one line per service, hour type and tariff; never twice', async () => {
    const p = await project('Hours');
    const s = await service(p, { invoiceMethod: 'time_and_expenses' });
    const fixed = await service(p, { invoiceMethod: 'fixed_price', price: 50, amount: 1 });
    const billed = [
      await hour(p, s, { minutes: 90, tariff: 100, date: '2026-06-01' }),
      await hour(p, s, { minutes: 30, tariff: 100, date: '2026-06-02' }),
      await hour(p, s, { minutes: 20, tariff: 80.5, date: '2026-06-03' }),
    ];
    const kept = [
      await hour(p, s, { minutes: 60, tariff: 100, date: '2026-06-04', status: 'submitted' }),
      await hour(p, s, { minutes: 60, tariff: 100, date: '2026-06-05', billable: false }),
      await hour(p, s, { minutes: 60, tariff: 100, date: '2026-07-01' }),
      // hours on a fixed price service are covered by its price
      await hour(p, fixed, { minutes: 60, tariff: 100, date: '2026-06-01' }),
    ];
    const item = await draftOne(p, '2026-06-30');
    const lines = (await linesOf(item.invoiceId)).filter((l) => l.service_id === s);
    // 2 h × 100 and 20 min = 0.3333 h × 80.50 = 26.83
    expect(lines.map((l) => [l.amount, l.price, l.total]).sort()).toEqual([
      [0.3333, 80.5, 26.83],
      [2, 100, 200],
    ]);
    for (const h of billed) expect(await invoiceOfHour(h)).toBe(item.invoiceId);
    for (const h of kept) expect(await invoiceOfHour(h)).toBeNull();
    const proposition = await v2Get<{ total_hours: number }[]>(acme, `/invoices/proposition?q[id]=${encodeURIComponent(p)}`);
    // what is left to invoice as hours: the approved July hour (1 h × 100)
    expect(proposition[0]?.total_hours).toBe(100);
    // invoiced hours are neither editable nor deletable
    const del = await acme.v2('DELETE', `/hours/hours/${billed[0]}`);
    expect(del.status, del.text).toBe(400);
    // a second request finds nothing more to bill as hours
    const again = await draftOne(p, '2026-06-30');
    expect(again.status).toBe('skipped');
    // deleting the draft frees its hours for the next one
    expect((await acme.v2('DELETE', `/invoices/invoice/${item.invoiceId}`)).status).toBe(200);
    for (const h of billed) expect(await invoiceOfHour(h)).toBeNull();
  });

  it('a drafted invoice sent: its services become invoiced and uneditable; the service read shows the invoiced amount', async () => {
    const p = await project('Sent');
    const s = await service(p, { invoiceMethod: 'fixed_price', price: 700, amount: 1 });
    const item = await draftOne(p, '2026-06-30');
    const sent = await acme.v3('POST', `/invoice.send/${item.invoiceId}`, {});
    expect(sent.status, sent.text).toBe(200);
    const edit = await acme.v3('POST', '/projectService.edit', { id: s, name: 'Renamed' });
    expect(edit.status, edit.text).toBe(422);
    const read = await v2Get<{ invoiced_amount: number; status: string }>(acme, `/projects/service/${s}`);
    expect(read).toMatchObject({ invoiced_amount: 700 });
    const proj = await v2Get<{ invoiced_amount: number }>(acme, `/projects/project/${p}`);
    expect(proj.invoiced_amount).toBe(700);
  });
});

describe('never billed twice', () => {
  it('two concurrent requests for the same projects, worked by two workers, bill every item exactly once', async () => {
    second = await startWorkerProcess({ DATABASE_URL: t.db.url, DATA_DIR: t.dataDir });
    const projects: string[] = [];
    for (let i = 0; i < 6; i += 1) {
      const p = await project(`Race ${i}`);
      await service(p, { invoiceMethod: 'fixed_price', price: 100 + i, amount: 1 });
      await service(p, {
        invoiceMethod: 'fixed_price',
        price: 1000,
        invoiceInInstallments: true,
        installments: [
          { name: 'One', percentage: 50, expirationDate: '2026-01-01' },
          { name: 'Two', percentage: 50, expirationDate: '2026-02-01' },
        ],
      });
      await service(p, { invoiceMethod: 'subscription', price: 10, startDate: '2026-01-01' });
      await service(p, { invoiceMethod: 'time_and_expenses' });
      const te = await service(p, { invoiceMethod: 'time_and_expenses' });
      await hour(p, te, { minutes: 60, tariff: 25, date: '2026-01-10' });
      await hour(p, te, { minutes: 60, tariff: 25, date: '2026-02-10' });
      await purchase(p, 'S', 5, '2026-01-05');
      projects.push(p);
    }
    const [a, b] = await Promise.all([
      requestDrafts(projects, '2026-03-31'),
      requestDrafts([...projects].reverse(), '2026-03-31'),
    ]);
    const [doneA, doneB] = await Promise.all([waitUntilDone(a), waitUntilDone(b)]);
    expect(doneA.projects.failed + doneB.projects.failed).toBe(0);
    // each project is drafted by exactly one of the two requests
    for (const p of projects) {
      const drafted = [...doneA.items, ...doneB.items].filter((i) => i.projectId === p && i.status === 'drafted');
      expect(drafted, p).toHaveLength(1);
    }
    const dup = await t.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM (SELECT source_type, source_id FROM invoice_line WHERE source_id IS NOT NULL
        GROUP BY 1, 2 HAVING count(*) > 1) d`,
    );
    expect(dup).toEqual([{ n: 0 }]);
    // per project: fixed 100+i, installments 500 + 500, 3 monthly cycles of 10, 2 hours × 25, costs 5
    const totals = await t.db.query<{ project_id: string; total: string; lines: number }>(
      `SELECT project_id, sum(total_amount)::text AS total, sum((SELECT count(*) FROM invoice_line l WHERE l.invoice_id = i.id))::int AS lines
         FROM invoice i WHERE project_id = ANY($1::text[]) GROUP BY project_id`,
      [projects],
    );
    expect(totals).toHaveLength(6);
    for (const row of totals) {
      const i = projects.indexOf(row.project_id);
      expect(row).toMatchObject({ total: (100 + i + 1000 + 30 + 50 + 5).toFixed(2), lines: 8 });
    }
    const installments = await t.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM project_service_installment i JOIN project_service s ON s.id = i.project_service_id
        WHERE s.project_id = ANY($1::text[]) AND i.invoice_id IS NULL`,
      [projects],
    );
    expect(installments).toEqual([{ n: 0 }]);
    // every hour on exactly one invoice (the hour row holds one invoice id), and none left over
    const hours = await t.db.query<{ invoiced: number; open: number }>(
      `SELECT count(*) FILTER (WHERE invoice_id IS NOT NULL)::int AS invoiced, count(*) FILTER (WHERE invoice_id IS NULL)::int AS open
         FROM hour_registration WHERE project_id = ANY($1::text[])`,
      [projects],
    );
    expect(hours).toEqual([{ invoiced: 12, open: 0 }]);
  });
});
