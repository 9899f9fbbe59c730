import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from './support/database.js';
import { type Bookable, bookable, hoursBody, v2Data, v2Post } from './support/hours.js';
import { type LoggedStatement, type StatementLog, startStatementLog, transactionsOf } from './support/pg-statement-log.js';
import { type ApiClient, startTestService, type TestService } from './support/service.js';

/**
 * The writes of projects, project services, assignments, default services, shared items, expenses,
 * mileage and timers go through the tenant reader only, in a transaction of our own (issue 27 §1): no
 * statement of Prisma's in their transaction, a plain create in one round trip. And what Prisma did
 * for them is still done: defaults chosen in the database, lines kept by type, exact decimals.
 */
let t: TestService;
let log: StatementLog;
let acme: ApiClient;
let b: Bookable;

type Service = {
  id: string;
  hourTypes: { id: string; hourTypeId: string; tariff: number | null; budgetedAmount: number | null }[];
  costTypes: { id: string; costTypeId: string; tariff: number | null }[];
  [k: string]: unknown;
};

async function statementsOf<T>(request: () => Promise<T>): Promise<{ answer: T; statements: LoggedStatement[] }> {
  await new Promise((r) => setTimeout(r, 50));
  log.clear();
  const answer = await request();
  await new Promise((r) => setTimeout(r, 50));
  return { answer, statements: [...log.statements] };
}

/** The one transaction that writes into `table` (an INSERT or an UPDATE of it, also inside a WITH). */
function writeOf(statements: LoggedStatement[], table: string): LoggedStatement[] {
  const marker = new RegExp(`(INSERT INTO|UPDATE) ("public"\\.)?"?${table}"? `, 'i');
  const matching = transactionsOf(statements).filter((tx) => tx.some((s) => marker.test(s.sql)));
  expect(matching, `one transaction writing ${table}`).toHaveLength(1);
  return matching[0] as LoggedStatement[];
}

/** Prisma writes its statements with the schema's name: ours never do. */
function prismaStatementsIn(tx: LoggedStatement[]): string[] {
  return tx.map((s) => s.sql).filter((sql) => /"public"\./.test(sql));
}

const roundTrips = (tx: LoggedStatement[]) => new Set(tx.map((s) => s.roundTrip)).size;

async function ofOwnTransaction(table: string, request: () => Promise<{ status: number; text: string }>, status = 200) {
  const { answer, statements } = await statementsOf(request);
  expect(answer.status, answer.text).toBe(status);
  const tx = writeOf(statements, table);
  expect(prismaStatementsIn(tx)).toEqual([]);
  return { tx, answer };
}

const one = async <T extends Record<string, unknown> = Record<string, unknown>>(sql: string, params: unknown[]): Promise<T> =>
  (await t.db.query<T>(sql, params))[0] as T;

beforeAll(async () => {
  const db = await createTestDatabase();
  log = await startStatementLog(db.url);
  t = await startTestService({ db: { ...db, url: log.url } });
  acme = await t.environment('acme');
  b = await bookable(acme, 'Counted');
});

afterAll(async () => {
  await t?.stop();
  await log?.close();
});

describe('project writes through the tenant reader', () => {
  it('a project create is one transaction of our own in one round trip; without a status it starts in the first open one', async () => {
    const { tx, answer } = await ofOwnTransaction('project', () => acme.v2('POST', '/projects/project', { name: 'One trip' }));
    expect(roundTrips(tx)).toBe(1);
    const id = (answer as unknown as { body: { data: { id: string } } }).body.data.id;
    const stored = await one<{ status: string | null; first: string; updated: boolean }>(
      `SELECT p.project_status_id AS status,
              (SELECT s.id FROM project_status s WHERE s.environment_id = p.environment_id AND NOT s.is_closed
                ORDER BY s.position, s.id LIMIT 1) AS first,
              p.updated_at IS NOT NULL AS updated
         FROM project p WHERE p.id = $1`,
      [id],
    );
    expect(stored.status).toBe(stored.first);
    const event = await one<{ data: Record<string, unknown> }>(`SELECT data FROM event WHERE entity_id = $1`, [id]);
    expect(event.data).toMatchObject({ id, name: 'One trip', phase: 'execution', billable: true });
    expect(event.data.projectStatus).toMatchObject({ id: stored.first, isClosed: false });
  });

  it('a project named with a status keeps it; an update is one transaction of our own', async () => {
    const closed = await one<{ id: string }>(
      `SELECT s.id FROM project_status s JOIN environment e ON e.id = s.environment_id WHERE e.name = 'acme' AND s.is_closed`,
      [],
    );
    const id = await v2Post(acme, '/projects/project', { name: 'Closed from the start', project_status_id: closed.id });
    expect((await one<{ s: string }>('SELECT project_status_id AS s FROM project WHERE id = $1', [id])).s).toBe(closed.id);
    const { tx } = await ofOwnTransaction('project', () =>
      acme.v2('PUT', `/projects/project/${id}`, { note: 'Renamed', start_date: '2026-04-01' }),
    );
    // BEGIN with the row's lock, then the row, the event and the COMMIT
    expect(roundTrips(tx)).toBeLessThanOrEqual(2);
    expect(await one('SELECT note, start_date::text AS start FROM project WHERE id = $1', [id])).toEqual({
      note: 'Renamed',
      start: '2026-04-01',
    });
  });

  it('approving an acquisition moves the project and its acquisition services in one transaction of our own, an event for each service', async () => {
    const project = await v2Post(acme, '/projects/project', { name: 'Won pitch', phase: 'acquisition' });
    const created = await acme.v3('POST', '/projectService.acquisition.create', { projectId: project, name: 'Pitching' });
    expect(created.status, created.text).toBe(201);
    const service = (created.body as { id: string }).id;
    await ofOwnTransaction('project', () => acme.v3('POST', '/project.acquisition.approve', { projectId: project }));
    expect(await one('SELECT phase FROM project_service WHERE id = $1', [service])).toEqual({ phase: 'execution' });
    const events = await t.db.query<{ type: string; phase: string }>(
      `SELECT type, data->>'phase' AS phase FROM event WHERE entity_id = $1 ORDER BY seq`,
      [service],
    );
    expect(events).toEqual([
      { type: 'projectservice.created', phase: 'acquisition' },
      { type: 'projectservice.updated', phase: 'execution' },
    ]);
    // a project in execution has nothing to approve, and nothing changes
    const again = await acme.v3('POST', '/project.acquisition.approve', { projectId: project });
    expect(again.status, again.text).toBe(422);
  });
});

describe('project service writes through the tenant reader', () => {
  const tariffOf = async (table: string, id: string) =>
    (await one<{ tariff: string | null }>(`SELECT tariff::text AS tariff FROM ${table} WHERE id = $1`, [id])).tariff;

  it('a line without a tariff of its own takes its type’s; an edit keeps hour type lines by type, so assignments on them survive', async () => {
    const types = await t.db.query<{ id: string }>(
      `SELECT h.id FROM hour_type h JOIN environment e ON e.id = h.environment_id WHERE e.name = 'acme' ORDER BY h.label LIMIT 3`,
    );
    const [a, bType, c] = types.map((r) => r.id) as [string, string, string];
    const costType = (
      await one<{ id: string }>(
        `SELECT c.id FROM cost_type c JOIN environment e ON e.id = c.environment_id WHERE e.name = 'acme' ORDER BY c.label LIMIT 1`,
        [],
      )
    ).id;
    const { answer } = await ofOwnTransaction(
      'project_service',
      () =>
        acme.v3('POST', '/projectService.create', {
          projectId: b.project,
          name: 'Lines',
          invoiceMethod: 'time_and_expenses',
          hourTypes: [
            { hourTypeId: a, tariff: 90.1234, budgetedAmount: 12.5, billable: true },
            { hourTypeId: bType, billable: false },
          ],
          costTypes: [{ costTypeId: costType, purchaseTariff: 1.5, billable: true }],
        }),
      201,
    );
    const s = answer as unknown as { body: Service };
    const lineA = s.body.hourTypes.find((l) => l.hourTypeId === a) as Service['hourTypes'][number];
    const lineB = s.body.hourTypes.find((l) => l.hourTypeId === bType) as Service['hourTypes'][number];
    expect(await tariffOf('project_service_hour_type', lineA.id)).toBe('90.1234');
    expect(await tariffOf('project_service_hour_type', lineB.id)).toBe(await tariffOf('hour_type', bType));
    const costLine = s.body.costTypes[0] as Service['costTypes'][number];
    expect(await tariffOf('project_service_cost_type', costLine.id)).toBe(await tariffOf('cost_type', costType));

    const assignment = await v2Post(acme, '/projects/assignment', {
      projecthourstype_id: lineA.id,
      employees: [{ id: b.employee }],
    });
    const edited = await ofOwnTransaction('project_service', () =>
      acme.v3('POST', '/projectService.edit', {
        id: s.body.id,
        hourTypes: [
          { hourTypeId: a, tariff: null, budgetedAmount: 3, billable: true },
          { hourTypeId: c, billable: true },
        ],
        costTypes: [],
      }),
    );
    const after = (edited.answer as unknown as { body: Service }).body;
    // the line of a stays (its id, its assignment), with what the edit says; b's goes, c's comes with its type's tariff
    expect(after.hourTypes.map((l) => [l.hourTypeId, l.id === lineA.id])).toEqual([
      [a, true],
      [c, false],
    ]);
    expect(after.hourTypes[0]).toMatchObject({ tariff: null, budgetedAmount: 3 });
    expect(await tariffOf('project_service_hour_type', (after.hourTypes[1] as { id: string }).id)).toBe(
      await tariffOf('hour_type', c),
    );
    expect(after.costTypes).toEqual([]);
    expect(await one('SELECT project_hour_type_id AS line FROM assignment WHERE id = $1', [assignment])).toEqual({
      line: lineA.id,
    });
    // the employees named become exactly the assignment's, the kept link stays
    const kept = await one<{ id: string }>('SELECT id FROM assignment_employee WHERE assignment_id = $1', [assignment]);
    const other = await v2Post(acme, '/hrm/employee', { name: 'Second Planned' });
    await ofOwnTransaction('assignment', () =>
      acme.v2('PUT', `/projects/assignment/${assignment}`, { employees: [{ id: b.employee }, { id: other }] }),
    );
    const links = await t.db.query<{ id: string; employee_id: string }>(
      'SELECT id, employee_id FROM assignment_employee WHERE assignment_id = $1 ORDER BY employee_id',
      [assignment],
    );
    expect(links.map((l) => l.employee_id).sort()).toEqual([b.employee, other].sort());
    expect(links.some((l) => l.id === kept.id)).toBe(true);
  });

  it('a duplicate copies the service, its lines and installments exactly, the installments open again, in one transaction of our own', async () => {
    const created = await acme.v3('POST', '/projectService.create', {
      projectId: b.project,
      name: 'In installments',
      invoiceMethod: 'fixed_price',
      price: 1000.5,
      startDate: '2026-05-01',
      invoiceInInstallments: true,
      installments: [
        { name: 'First', percentage: 33.3333, expirationDate: '2026-06-01' },
        { name: 'Second', price: 666.8 },
      ],
      hourTypes: [{ hourTypeId: b.hourType, tariff: 85.5, budgetedAmount: 12.3456 }],
    });
    expect(created.status, created.text).toBe(201);
    const source = (created.body as Service).id;
    await t.db.query(
      `UPDATE project_service_installment SET status = 'invoiced' WHERE project_service_id = $1 AND name = 'First'`,
      [source],
    );
    const { answer } = await ofOwnTransaction('project_service', () =>
      acme.v2('POST', `/projects/service/${source}/duplicate`, { name: 'Copy' }),
    );
    const copy = (answer as unknown as { body: { data: { id: string } } }).body.data.id;
    const shape = (id: string) =>
      one<Record<string, unknown>>(
        `SELECT s.price::text, s.start_date::text, s.invoice_in_installments, s.status,
                (SELECT json_agg(json_build_object('name', i.name, 'percentage', i.percentage::text, 'price', i.price::text,
                                                   'expirationDate', i.expiration_date::text, 'status', i.status,
                                                   'invoiceId', i.invoice_id) ORDER BY i.position) FROM project_service_installment i
                  WHERE i.project_service_id = s.id) AS installments,
                (SELECT json_agg(json_build_object('type', l.hour_type_id, 'tariff', l.tariff::text,
                                                   'budgeted', l.budgeted_amount::text, 'billable', l.billable)
                                 ORDER BY l.position) FROM project_service_hour_type l WHERE l.project_service_id = s.id) AS lines
           FROM project_service s WHERE s.id = $1`,
        [id],
      );
    const original = await shape(source);
    const copied = await shape(copy);
    expect(copied).toEqual({
      ...original,
      installments: (original.installments as Record<string, unknown>[]).map((i) => ({ ...i, status: 'open' })),
    });
    expect(copied.lines).toEqual([{ type: b.hourType, tariff: '85.5000', budgeted: '12.3456', billable: true }]);
    expect(await one('SELECT name FROM project_service WHERE id = $1', [copy])).toEqual({ name: 'Copy' });
  });
});

describe('the other writes of the area through the tenant reader', () => {
  it('default services, shared items and assignment statuses: a create in one round trip after its references, an update in a transaction of our own', async () => {
    const hourType = b.hourType;
    const ds = await ofOwnTransaction('default_service', () =>
      acme.v2('POST', '/services/defaultservice', {
        name: 'Counted template',
        price: 25,
        invoice_method: 'Subscription',
        hour_types: [{ hourtype_id: hourType, tariff: 75 }],
      }),
    );
    // its hour type checked with BEGIN; the row, its lines and its event with the COMMIT
    expect(roundTrips(ds.tx)).toBeLessThanOrEqual(2);
    const dsId = (ds.answer as unknown as { body: { data: { id: string } } }).body.data.id;
    await ofOwnTransaction('default_service', () => acme.v2('PUT', `/services/defaultservice/${dsId}`, { price: 30 }));
    expect(await v2Data(acme, `/services/defaultservice/${dsId}`)).toMatchObject({
      price: 30,
      hour_types: [{ hourtype_id: hourType, tariff: 75 }],
    });

    const item = await ofOwnTransaction('shared_item', () => acme.v2('POST', '/shared/item', { tag: 'counted', data: '{}' }));
    expect(roundTrips(item.tx)).toBe(1);
    const itemId = (item.answer as unknown as { body: { data: { id: string } } }).body.data.id;
    await ofOwnTransaction('shared_item', () => acme.v2('PUT', `/shared/item/${itemId}`, { data: '{"a":1}' }));
    // a private item names its employee: refused, nothing changed
    expect((await acme.v2('PUT', `/shared/item/${itemId}`, { shared: 'private' })).status).toBe(400);
    expect(await one('SELECT shared, data FROM shared_item WHERE id = $1', [itemId])).toEqual({
      shared: 'shared',
      data: '{"a":1}',
    });

    const status = await ofOwnTransaction('assignment_status', () =>
      acme.v2('POST', '/projects/assignmentstatus', { name: 'Counted status' }),
    );
    expect(roundTrips(status.tx)).toBe(1);
    const statusId = (status.answer as unknown as { body: { data: { id: string } } }).body.data.id;
    // it goes last
    const last = await one<{ last: boolean }>(
      `SELECT s.position = (SELECT max(o.position) FROM assignment_status o WHERE o.environment_id = s.environment_id) AS last
         FROM assignment_status s WHERE s.id = $1`,
      [statusId],
    );
    expect(last.last).toBe(true);
  });

  it('an edit of hours takes its week before its row, and reads the row locked once for the week and the edit (and once more, bare, for If-Match)', async () => {
    const id = await v2Post(acme, '/hours/hours', hoursBody(b, { start_date: '2026-03-10' }));
    const { tx } = await ofOwnTransaction('hour_registration', () =>
      acme.v2('PUT', `/hours/hours/${id}`, { duration_in_minutes: 75, note: 'Counted' }),
    );
    const sqls = tx.map((s) => s.sql);
    const week = sqls.findIndex((sql) => sql.includes('pg_advisory_xact_lock'));
    const locked = sqls.flatMap((sql, i) => (/FROM "?hour_registration"?[\s\S]*FOR UPDATE/i.test(sql) ? [i] : []));
    expect(week, 'the week is taken').toBeGreaterThanOrEqual(0);
    expect(
      locked.every((i) => i > week),
      'every lock of the row after its week',
    ).toBe(true);
    // the row as the edit needs it, and the bare lock the If-Match check hangs on: not a third time
    expect(locked).toHaveLength(2);
    expect(await v2Data(acme, `/hours/hours/${id}`)).toMatchObject({ duration_in_minutes: 75, note: 'Counted' });
  });

  it('expenses, mileage, timers and project employees are written in a transaction of our own', async () => {
    const costType = (
      await one<{ id: string }>(
        `SELECT c.id FROM cost_type c JOIN environment e ON e.id = c.environment_id WHERE e.name = 'acme' ORDER BY c.label LIMIT 1`,
        [],
      )
    ).id;
    const service = await v2Post(acme, '/projects/service', {
      project_id: b.project,
      name: 'Costs',
      invoice_method: 'Hours',
      hour_types: [{ hourtype_id: costType, billable: true, tariff: 12 }],
    });
    const expense = await ofOwnTransaction('expense', () =>
      acme.v2('POST', '/costs/expense', {
        employee_id: b.employee,
        service_id: service,
        costtype_id: costType,
        date: '2026-03-05',
        amount: 3,
      }),
    );
    const expenseId = (expense.answer as unknown as { body: { data: { id: string } } }).body.data.id;
    await ofOwnTransaction('expense', () => acme.v2('PUT', `/costs/expense/${expenseId}`, { amount: 4, date: '2026-03-06' }));
    expect(
      await one('SELECT amount::text, tariff::text, start_date::text AS date FROM expense WHERE id = $1', [expenseId]),
    ).toEqual({
      amount: '4.0000',
      tariff: '12.0000',
      date: '2026-03-06',
    });

    const mileage = await ofOwnTransaction('mileage', () =>
      acme.v2('POST', '/mileage/mileage', {
        employee_id: b.employee,
        project_id: b.project,
        mileage: 42.5,
        start_date: '2026-03-02',
      }),
    );
    const mileageId = (mileage.answer as unknown as { body: { data: { id: string } } }).body.data.id;
    await ofOwnTransaction('mileage', () => acme.v2('PUT', `/mileage/mileage/${mileageId}`, { mileage: 40 }));
    expect(await one('SELECT mileage::text AS km, start_date::text AS date FROM mileage WHERE id = $1', [mileageId])).toEqual({
      km: '40.00',
      date: '2026-03-02',
    });

    const timer = await ofOwnTransaction('timer', () =>
      acme.v2('POST', '/timers/timer', { employee_id: b.employee, projectservice_id: b.service, hourstype_id: b.hourType }),
    );
    const timerId = (timer.answer as unknown as { body: { data: { id: string } } }).body.data.id;
    await ofOwnTransaction('timer', () => acme.v2('PUT', `/timers/timer/${timerId}`, { state: 'paused' }));
    expect(await one('SELECT state, running_since FROM timer WHERE id = $1', [timerId])).toEqual({
      state: 'paused',
      running_since: null,
    });

    const employee = await v2Post(acme, '/hrm/employee', { name: 'On the project' });
    await ofOwnTransaction('project_employee', () =>
      acme.v2('POST', '/projects/projectemployee', { project_id: b.project, employee_id: employee }),
    );
  });
});
