import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type createCaller, toDomainError } from '@bo/domain';
import { type Bookable, bookable } from './support/hours.js';
import { type ApiClient, callerOf, startTestService, type TestService } from './support/service.js';

/**
 * Issue 27 §3: the domain lists in its own terms. A list takes the domain list query (where over
 * domain paths, orderBy, offset, limit, count) and answers items and count; v3 maps `date[ge]`,
 * `page`/`itemsPerPage` and `totalItems`/`totalPages` onto it.
 */

let t: TestService;
let acme: ApiClient;
let caller: ReturnType<typeof createCaller>;
let a: Bookable;
let b: Bookable;

type V3Page = { items: Record<string, unknown>[]; page: number; itemsPerPage: number; totalItems: number; totalPages: number };

beforeAll(async () => {
  t = await startTestService();
  acme = await t.environment('acme');
  caller = await callerOf(t, 'acme', acme);
  a = await bookable(acme, 'Lists A');
  b = await bookable(acme, 'Lists B');
  for (const [who, date, minutes] of [
    [a, '2026-04-06', 60],
    [a, '2026-04-07', 30],
    [a, '2026-04-14', 45],
    [b, '2026-04-08', 15],
  ] as const) {
    const res = await acme.v3('POST', '/hours.create', {
      employeeId: who.employee,
      projectServiceId: who.service,
      hourTypeId: who.hourType,
      date,
      durationMinutes: minutes,
    });
    expect(res.status, res.text).toBe(201);
  }
  for (const n of [1, 2]) {
    const res = await acme.v3('POST', '/webhook.create', { url: `http://127.0.0.1:9/hook${n}`, events: ['*'] });
    expect(res.status, res.text).toBe(201);
  }
});
afterAll(() => t?.stop());

async function refusal(call: Promise<unknown>): Promise<string | undefined> {
  const err = await call.then(
    () => null,
    (e: unknown) => e,
  );
  return toDomainError(err)?.kind;
}

describe('lists in the domain’s terms', () => {
  it('v3 hours.list is the hours entity’s list: date[ge] is a condition on startDate, page/itemsPerPage an offset and a limit', async () => {
    const v3 = (await acme.v3('GET', `/hours.list?employeeId=${a.employee}&date[ge]=2026-04-07&itemsPerPage=1&page=2`))
      .body as V3Page;
    const domain = await caller.hours.hours.list({
      where: {
        and: [
          { path: 'employeeId', op: 'eq', value: a.employee },
          { path: 'startDate', op: 'ge', value: '2026-04-07' },
        ],
      },
      orderBy: [
        { path: 'startDate', dir: 'asc' },
        { path: 'id', dir: 'asc' },
      ],
      offset: 1,
      limit: 1,
      count: true,
    });
    expect(domain.count).toBe(2);
    expect(domain.items.map((h) => h.startDate)).toEqual(['2026-04-14']);
    expect(v3).toMatchObject({ page: 2, itemsPerPage: 1, totalItems: 2, totalPages: 2 });
    expect(v3.items.map((h) => h.id)).toEqual(domain.items.map((h) => h.id));
  });

  it('the timesheet rows take the list query, a where over the hours’ employeeId, projectId and startDate, and answer items and count', async () => {
    const april = {
      and: [
        { path: 'startDate', op: 'ge' as const, value: '2026-04-07' },
        { path: 'startDate', op: 'le' as const, value: '2026-04-30' },
      ],
    };
    const both = await caller.hours.timesheet.list({
      where: { and: [april, { path: 'employeeId', op: 'in', value: [a.employee, b.employee] }] },
      count: true,
    });
    // a's two weeks from the 7th (the 6th is before the range) and b's one
    expect(both.count).toBe(3);
    expect(both.items.map((r) => [r.employeeId, r.weekStart, r.totalMinutes])).toEqual(
      [
        [a.employee, '2026-04-06', 30],
        [a.employee, '2026-04-13', 45],
        [b.employee, '2026-04-06', 15],
      ].sort((x, y) => String(x[0]).localeCompare(String(y[0])) || String(x[1]).localeCompare(String(y[1]))),
    );
    const second = await caller.hours.timesheet.list({ where: april, offset: 1, limit: 1 });
    expect(second.count).toBeNull();
    expect(second.items).toEqual(both.items.slice(1, 2));
    // v3 timesheet.list is the same list: its date[ge]/date[le] and paging mapped onto it
    const v3 = (await acme.v3('GET', '/timesheet.list?date[ge]=2026-04-07&date[le]=2026-04-30&itemsPerPage=1&page=2'))
      .body as V3Page;
    expect(v3).toMatchObject({ page: 2, itemsPerPage: 1, totalItems: 3, totalPages: 3 });
    expect(v3.items).toEqual(second.items);
    const ofProject = await caller.hours.timesheet.list({
      where: { path: 'projectId', op: 'eq', value: b.project },
      count: true,
    });
    expect(ofProject.items.map((r) => r.employeeId)).toEqual([b.employee]);
  });

  it('a list read by hand refuses what it cannot answer with a 400: an or, another path or operator, another order', async () => {
    const timesheet = caller.hours.timesheet.list;
    expect(
      await refusal(
        timesheet({
          where: {
            or: [
              { path: 'employeeId', op: 'eq', value: a.employee },
              { path: 'employeeId', op: 'eq', value: b.employee },
            ],
          },
        }),
      ),
    ).toBe('bad_request');
    expect(await refusal(timesheet({ where: { path: 'description', op: 'eq', value: 'x' } }))).toBe('bad_request');
    expect(await refusal(timesheet({ where: { path: 'startDate', op: 'gt', value: '2026-04-01' } }))).toBe('bad_request');
    expect(await refusal(timesheet({ where: { path: 'startDate', op: 'ge', value: '2026-02-30' } }))).toBe('bad_request');
    expect(await refusal(timesheet({ orderBy: [{ path: 'weekStart', dir: 'desc' }] }))).toBe('bad_request');
    expect(await refusal(caller.webhooks.webhook.list({ where: { path: 'url', op: 'eq', value: 'x' } }))).toBe('bad_request');
    expect(
      await refusal(caller.webhooks.webhook.delivery.list({ where: { path: 'status', op: 'in', value: ['pending', 'lost'] } })),
    ).toBe('bad_request');
  });

  it('the webhook subscriptions and the delivery log take the list query and answer items and count', async () => {
    const all = await caller.webhooks.webhook.list({ count: true });
    expect(all.count).toBe(2);
    const second = await caller.webhooks.webhook.list({ offset: 1, limit: 1 });
    expect(second).toEqual({ items: [all.items[1]], count: null });
    const v3 = (await acme.v3('GET', '/webhook.list?itemsPerPage=1&page=2')).body as V3Page;
    expect(v3).toMatchObject({ page: 2, itemsPerPage: 1, totalItems: 2, totalPages: 2 });
    expect(v3.items.map((w) => w.id)).toEqual([all.items[1]?.id]);
    const deliveries = await caller.webhooks.webhook.delivery.list({
      where: {
        and: [
          { path: 'webhookId', op: 'eq', value: all.items[0]?.id ?? '' },
          { path: 'status', op: 'in', value: ['failed'] },
        ],
      },
      count: true,
    });
    expect(deliveries).toEqual({ items: [], count: 0 });
  });
});
