import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractValidator } from './support/contract.js';
import { type Envelope, list, post, referenceId } from './support/crm.js';
import { type ApiClient, startTestService, type TestService } from './support/service.js';
import { databaseFingerprint } from './support/snapshot.js';
import { documentValidator } from './support/v3.js';

/** Sales in full (issue 12): lookups, services, quotes with groups and totals, the quote flow, conversion, v3. */

let t: TestService;
let acme: ApiClient;
let other: ApiClient;
let matches: Awaited<ReturnType<typeof documentValidator>>;
const ids: Record<string, string> = {};

type Row = Record<string, unknown> & { id: string };
const errorsOf = (res: { body: unknown }) => ((res.body as Envelope).errors ?? []).join(' ');

async function get<T = Row>(p: string, client: ApiClient = acme): Promise<T> {
  const res = await client.v2('GET', p);
  expect(res.status, `${p}: ${res.text}`).toBe(200);
  return (res.body as Envelope<T>).data;
}

/**
 * Where the reference is wrong and the contract says otherwise: GetSalesService types its
 * created_at and updated_at as arrays of hour types (v2 date-times everywhere else), and
 * its invoice_method enum has FixedFee only (the contract: FixedFee, Hours, Subscription).
 */
const { conforms } = contractValidator((defs) => {
  const salesService = defs.GetSalesService as { properties: Record<string, Record<string, unknown>> };
  salesService.properties.created_at = { type: 'string' };
  salesService.properties.updated_at = { type: 'string' };
  salesService.properties.invoice_method = { type: 'string', enum: ['FixedFee', 'Hours', 'Subscription'] };
});

async function lookup(table: string, where: string, env = 'acme') {
  return referenceId(t, env, table, where);
}

beforeAll(async () => {
  t = await startTestService();
  acme = await t.environment('acme');
  other = await t.environment('other');
  matches = await documentValidator(acme);
  ids.org = await post(acme, '/crm/organization', { name: 'Quote Buyer BV' });
  ids.otherOrg = await post(other, '/crm/organization', { name: 'Other Buyer BV' });
  ids.sale = await post(acme, '/sales/sales', { subject: 'Shop with options', organization_id: ids.org });
  ids.high = await lookup('vat_class', `r.code = 'high'`);
  ids.low = await lookup('vat_class', `r.code = 'low'`);
  ids.hourType = (
    await t.db.query<{ id: string }>(
      `SELECT h.id FROM hour_type h JOIN environment e ON e.id = h.environment_id WHERE e.name = 'acme' ORDER BY h.label LIMIT 1`,
    )
  )[0]?.id as string;
  ids.revenueGroup = await lookup('revenue_group', `r.label = 'Consultancy'`);
  ids.costType = await lookup('cost_type', 'true');
});
afterAll(() => t?.stop());

describe('sales lookups: salesstatus, salesprogress, salessource, salesreason, salesfilters, revenuegroup, quotestatus, quotetemplate', () => {
  it('each lists the environment’s own rows in the reference shape', async () => {
    const statuses = await list<Row>(acme, '/sales/salesstatus');
    expect(statuses.map((s) => s.label)).toEqual(['OpportunityStatus_open', 'OpportunityStatus_won', 'OpportunityStatus_lost']);
    for (const s of statuses) conforms('SalesStatus', s);
    const progress = await list<Row>(acme, '/sales/salesprogress');
    expect(progress[0]).toMatchObject({ label: 'Lead', chance_to_score: 10, position: 0 });
    for (const p of progress) conforms('SalesProgress', p);
    for (const s of await list<Row>(acme, '/sales/salessource')) conforms('SalesSource', s);
    for (const g of await list<Row>(acme, '/sales/revenuegroup')) conforms('RevenueGroup', g);
    for (const q of await list<Row>(acme, '/sales/quotestatus')) conforms('QuoteStatus', q);
    for (const q of await list<Row>(acme, '/sales/quotetemplate')) conforms('QuoteTemplate', q);
    const reasons = await list<Row>(acme, '/sales/salesreason');
    for (const r of reasons) conforms('SalesReason', r);
    const single = await get(`/sales/salesstatus/${encodeURIComponent(statuses[0]?.id as string)}`);
    expect(single).toEqual(statuses[0]);
    const theirs = await list<Row>(other, '/sales/salesstatus');
    expect(theirs.map((s) => s.id)).not.toContain(statuses[0]?.id);
  });

  it('blocked on salesreason (2023-06): listed, filterable', async () => {
    const reasons = await list<Row>(acme, '/sales/salesreason');
    expect(reasons.find((r) => r.name === 'No budget (retired)')).toMatchObject({ blocked: true });
    expect((await list<Row>(acme, '/sales/salesreason?q[blocked]=true')).map((r) => r.name)).toEqual(['No budget (retired)']);
  });

  it('new value options on salesfilters (2023-06): each filter lists the values it may take', async () => {
    const filters = await list<Row>(acme, '/sales/salesfilters');
    expect(filters.find((f) => f.key === 'status')).toMatchObject({ values: ['Open', 'Won', 'Lost'] });
    expect(filters.find((f) => f.key === 'expected_closing_date')?.values).toContain('this_quarter');
  });

  it('quotetemplate: POST, PUT and DELETE (PostQuoteTemplate)', async () => {
    const id = await post(acme, '/sales/quotetemplate', { name: 'Short', type: 'quote', html: '<p>Hi</p>' });
    expect((await acme.v2('PUT', `/sales/quotetemplate/${id}`, { name: 'Shorter' })).status).toBe(200);
    expect(await get(`/sales/quotetemplate/${id}`)).toMatchObject({ name: 'Shorter', html: '<p>Hi</p>', is_blocked: false });
    expect((await acme.v2('DELETE', `/sales/quotetemplate/${id}`)).status).toBe(200);
  });
});

describe('sales/document and sales/documenttype through the document store', () => {
  it('sales/document lists the documents linked to a sale; sales/documenttype the types meant for sales', async () => {
    const env = (await t.db.query<{ id: string }>(`SELECT id FROM environment WHERE name = 'acme'`))[0]?.id;
    const type = await lookup('document_type', 'r.is_for_sale');
    const insert = (id: string, saleId: string | null) =>
      t.db.query(
        `INSERT INTO document (id, environment_id, title, document_type_id, upload_id, storage_key, file_name, file_size,
                               content_type, linked_sale_id, linked_organization_id, updated_at)
         VALUES ($1, $2, $1, $3, $1, $1, 'offer.pdf', 1234, 'application/pdf', $4, $5, now())`,
        [id, env, type, saleId, saleId ? null : ids.org],
      );
    await insert('document:sale1', ids.sale as string);
    await insert('document:org1', null);
    const docs = await list<Row>(acme, '/sales/document');
    expect(docs.map((d) => d.id)).toEqual(['document:sale1']);
    expect(docs[0]).toMatchObject({ linked_to: [{ id: ids.sale, type: 'sale' }], document_type: { id: type }, file_size: 1234 });
    conforms('GetDocument', docs[0]);
    expect((await acme.v2('GET', '/sales/document/document:org1')).status).toBe(404);
    const types = await list<Row>(acme, '/sales/documenttype');
    expect(types.length).toBeGreaterThan(0);
    for (const d of types) {
      expect(d.is_for_sale || d.is_visible_on_all).toBe(true);
      conforms('GetDocumentType', d);
    }
  });
});

describe('sales/sales: status and progress come from the lookups', () => {
  it('status, progress, source and reason are real; status_updated_at is set when the status changes', async () => {
    const open = await lookup('sales_status', `r.label = 'OpportunityStatus_open'`);
    const won = await lookup('sales_status', `r.label = 'OpportunityStatus_won'`);
    const lead = await lookup('sales_progress', `r.label = 'Lead'`);
    const web = await lookup('sales_source', `r.name = 'Website'`);
    const price = await lookup('sales_reason', `r.name = 'Price'`);
    const id = await post(acme, '/sales/sales', {
      subject: 'Looked up',
      organization_id: ids.org,
      status_id: open,
      progress_id: lead,
      source_id: web,
    });
    const s = await get(`/sales/sales/${id}`);
    expect(s).toMatchObject({
      status: { id: open, label: 'OpportunityStatus_open' },
      progress: { id: lead, label: 'Lead', chance_to_score: 10, color: '#90caf9', position: 0 },
      source: { id: web, name: 'Website' },
      reason: null,
    });
    expect(s.status_updated_at).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    conforms('GetSales', s);
    expect((await acme.v2('PUT', `/sales/sales/${id}`, { status_id: won, reason: { id: price } })).status).toBe(200);
    expect(await get(`/sales/sales/${id}`)).toMatchObject({
      status: { label: 'OpportunityStatus_won' },
      reason: { id: price, name: 'Price', blocked: false },
    });
    expect(await list<Row>(acme, `/sales/sales?q[status.label]=OpportunityStatus_won&q[id]=${id}`)).toHaveLength(1);
  });

  it('a blocked reason cannot be chosen', async () => {
    const blocked = await lookup('sales_reason', `r.blocked`);
    const id = await post(acme, '/sales/sales', { subject: 'Blocked reason', organization_id: ids.org });
    const before = await databaseFingerprint(t.db);
    const res = await acme.v2('PUT', `/sales/sales/${id}`, { reason: { id: blocked } });
    expect(res.status, res.text).toBe(400);
    expect(errorsOf(res)).toContain('reason.id');
    expect(errorsOf(res)).toContain('blocked');
    expect(await databaseFingerprint(t.db)).toEqual(before);
  });
});

describe('sales/service', () => {
  let service: string;

  it('2026-01: the read has track_hours, track_cost and revenue_group_id; 2021: revenue_group_id is accepted on write', async () => {
    service = await post(acme, '/sales/service', {
      sales_id: ids.sale,
      name: 'Design',
      invoice_method: 'Hours',
      amount: 10,
      price: 95.5,
      track_hours: true,
      track_cost: false,
      revenue_group_id: ids.revenueGroup,
      vat_class_id: ids.high,
      hour_types: [
        { hourtype_id: ids.hourType, tariff: 95.5, budgeted_amount: 10, billable: true },
        { hourtype_id: ids.costType, tariff: 12.25, purchase_tariff: 10, budgeted_amount: 4, billable: true },
      ],
    });
    const s = await get(`/sales/service/${service}`);
    expect(s).toMatchObject({ track_hours: true, track_cost: false, revenue_group_id: ids.revenueGroup, sales_id: ids.sale });
    expect(s).toMatchObject({ invoice_method: 'Hours', amount: 10, price: 95.5, total: '955.00' });
    conforms('GetSalesService', s);
  });

  it('cost_types (GetSalesServiceCostType): a line of hour_types with a cost type id is a cost type line, as on project services', async () => {
    const s = await get<Row & { cost_types: Row[]; hour_types: Row[] }>(`/sales/service/${service}`);
    expect(s.hour_types).toHaveLength(1);
    expect(s.cost_types).toHaveLength(1);
    expect(s.cost_types[0]).toMatchObject({
      costtype: { id: ids.costType },
      tariff: 12.25,
      purchase_tariff: 10,
      budgeted_amount: 4,
      billable: true,
    });
    for (const c of s.cost_types) conforms('GetSalesServiceCostType', c);
    const unknown = await acme.v2('PUT', `/sales/service/${service}`, { hour_types: [{ hourtype_id: 'itemtype:nope' }] });
    expect(unknown.status, unknown.text).toBe(400);
    expect(errorsOf(unknown)).toMatch(/hour_types\.0/);
    expect((await get<Row & { cost_types: Row[] }>(`/sales/service/${service}`)).cost_types).toHaveLength(1);
  });

  it('2025-01: is_active says whether the service was successfully created', async () => {
    expect((await get(`/sales/service/${service}`)).is_active).toBe(true);
  });

  it('2025-05: explanation', async () => {
    expect((await acme.v2('PUT', `/sales/service/${service}`, { explanation: 'Two rounds of design' })).status).toBe(200);
    expect((await get(`/sales/service/${service}`)).explanation).toBe('Two rounds of design');
  });

  it('2021: vat_class replaces vat_code and vat_description', async () => {
    const s = await get(`/sales/service/${service}`);
    expect(s.vat_class).toEqual({ id: ids.high, code: 'high', label: 'High rate', percentage: 21 });
    expect(s).not.toHaveProperty('vat_code');
    expect(s).not.toHaveProperty('vat_description');
    const res = await acme.v2('PUT', `/sales/service/${service}`, { vat_code: 'H21' });
    expect(res.status).toBe(400);
    expect(errorsOf(res)).toContain('vat_code');
  });

  it('hour_types[].billable follows the 2026-04 rule of project services', async () => {
    const before = await databaseFingerprint(t.db);
    // with invoice method Hours billable must be said
    const unsaid = await acme.v2('POST', '/sales/service', {
      sales_id: ids.sale,
      name: 'Unsaid',
      invoice_method: 'Hours',
      hour_types: [{ hourtype_id: ids.hourType }],
    });
    expect(unsaid.status).toBe(400);
    expect(errorsOf(unsaid)).toContain('hour_types.0.billable');
    // a fixed fee bills everything: false is refused
    const fixedFalse = await acme.v2('POST', '/sales/service', {
      sales_id: ids.sale,
      name: 'Fixed',
      invoice_method: 'FixedFee',
      hour_types: [{ hourtype_id: ids.hourType, billable: false }],
    });
    expect(fixedFalse.status).toBe(400);
    expect(await databaseFingerprint(t.db)).toEqual(before);
    // null on a fixed fee becomes true
    const fixed = await post(acme, '/sales/service', {
      sales_id: ids.sale,
      name: 'Fixed',
      invoice_method: 'FixedFee',
      hour_types: [{ hourtype_id: ids.hourType, billable: null }],
    });
    expect((await get<{ hour_types: Row[] }>(`/sales/service/${fixed}`)).hour_types[0]).toMatchObject({ billable: true });
    await acme.v2('DELETE', `/sales/service/${fixed}`);
  });

  it('a cost type line without a tariff takes the cost type’s; one with tariff null has none', async () => {
    const travel = await lookup('cost_type', `r.label = 'Travel expenses'`);
    const id = await post(acme, '/sales/service', {
      sales_id: ids.sale,
      name: 'Travel',
      invoice_method: 'FixedFee',
      hour_types: [
        { hourtype_id: travel, billable: true },
        { hourtype_id: travel, tariff: null, billable: true },
      ],
    });
    const s = await get<Row & { cost_types: Row[] }>(`/sales/service/${id}`);
    expect(s.cost_types.map((c) => c.tariff)).toEqual([0.23, null]);
    await acme.v2('DELETE', `/sales/service/${id}`);
  });

  it('a new invoice method re-applies the billable rule to the hour types kept: unbillable ones refuse a fixed fee', async () => {
    const line = { hourtype_id: ids.hourType, tariff: 80.5, budgeted_amount: 2.25 };
    const id = await post(acme, '/sales/service', {
      sales_id: ids.sale,
      name: 'Method change',
      invoice_method: 'Hours',
      hour_types: [{ ...line, billable: false }],
    });
    const before = await databaseFingerprint(t.db);
    const refused = await acme.v2('PUT', `/sales/service/${id}`, { invoice_method: 'FixedFee' });
    expect(refused.status, refused.text).toBe(400);
    expect(errorsOf(refused)).toContain('hour_types.0.billable');
    expect(await databaseFingerprint(t.db)).toEqual(before);
    expect((await acme.v2('PUT', `/sales/service/${id}`, { hour_types: [{ ...line, billable: true }] })).status).toBe(200);
    const changed = await acme.v2('PUT', `/sales/service/${id}`, { invoice_method: 'FixedFee' });
    expect(changed.status, changed.text).toBe(200);
    const s = await get<Row & { hour_types: Row[] }>(`/sales/service/${id}`);
    expect(s.invoice_method).toBe('FixedFee');
    expect(s.hour_types).toHaveLength(1);
    expect(s.hour_types[0]).toMatchObject({ tariff: 80.5, budgeted_amount: 2.25, billable: true });
    await acme.v2('DELETE', `/sales/service/${id}`);
  });

  it('POST /{id}/duplicate copies the service and its hour and cost types as a new service', async () => {
    const res = await acme.v2('POST', `/sales/service/${service}/duplicate`, {});
    expect(res.status, res.text).toBe(200);
    const copy = (res.body as Envelope<{ id: string }>).data.id;
    const [a, b] = [await get(`/sales/service/${service}`), await get(`/sales/service/${copy}`)];
    const same = (s: Row) => {
      const {
        id: _i,
        created_at: _c,
        updated_at: _u,
        created: _cl,
        modified: _ml,
        hour_types,
        cost_types,
        ...rest
      } = s as Row & {
        hour_types: Row[];
        cost_types: Row[];
      };
      return {
        ...rest,
        hour_types: hour_types.map(({ id: _h, ...h }) => h),
        cost_types: cost_types.map(({ id: _h, ...h }) => h),
      };
    };
    expect(same(b)).toEqual(same(a));
    expect(b.is_active).toBe(true);
    const events = await t.db.query<{ type: string }>('SELECT type FROM event WHERE entity_id = $1 ORDER BY seq', [copy]);
    expect(events.map((e) => e.type)).toEqual(['saleservice.created']);
    expect(await list(acme, `/sales/service?q[sales_id]=${ids.sale}`)).toHaveLength(2);
    await acme.v2('DELETE', `/sales/service/${copy}`);
  });
});

function quoteBody(over: Record<string, unknown> = {}) {
  return {
    sales_id: ids.sale,
    quote_subject: 'Shop rebuild',
    service_groups: [
      {
        name: 'Base',
        services: [
          { service_id: ids.service, quantity: 10, price: 95.5 },
          { name: 'Hosting setup', quantity: 1, price: 0.005, vat_class_id: ids.high },
          { name: 'Hosting setup 2', quantity: 1, price: 0.005, vat_class_id: ids.high },
        ],
      },
      {
        name: 'Payment module',
        type: 'single_required',
        services: [
          { name: 'Stripe', quantity: 1, price: 400, vat_class_id: ids.high, chosen: true },
          { name: 'Mollie', quantity: 1, price: 350, vat_class_id: ids.high },
        ],
      },
      {
        name: 'Extras',
        type: 'multiple_optional',
        services: [
          { name: 'Book', quantity: 2, price: 12.5, vat_class_id: ids.low, chosen: true },
          { name: 'Training', quantity: 1, price: 1000, vat_class_id: ids.high },
        ],
      },
    ],
    ...over,
  };
}

describe('sales/quote', () => {
  beforeAll(async () => {
    ids.service = (await list<Row>(acme, `/sales/service?q[sales_id]=${ids.sale}&q[name]=Design`))[0]?.id as string;
  });

  it('2024-11: service_groups[], each with a type of the enum, default all_included', async () => {
    ids.quote = await post(acme, '/sales/quote', quoteBody());
    const q = await get<Row & { service_groups: Row[] }>(`/sales/quote/${ids.quote}`);
    expect(q.service_groups.map((g) => [g.name, g.type])).toEqual([
      ['Base', 'all_included'],
      ['Payment module', 'single_required'],
      ['Extras', 'multiple_optional'],
    ]);
    expect(q.quotestatus).toMatchObject({ label: 'Draft' });
    expect(q.quote_number).toMatch(/^Q-\d{4}-\d{4}$/);
    conforms('GetQuote', q);
  });

  it('2024-12: totals per group; optional groups count chosen services only; VAT per VAT class', async () => {
    const q = await get<Row & { service_groups: (Row & { totals: Row; services: Row[] })[] }>(`/sales/quote/${ids.quote}`);
    // Base: 10 × 95.50 (the service's VAT class, high) + 0.01 + 0.01 (each 0.005 rounded half up)
    const base = q.service_groups[0];
    expect(base?.services.map((s) => s.total)).toEqual(['955.00', '0.01', '0.01']);
    expect(base?.totals).toMatchObject({ total_excl: '955.02', total_vat: '200.55', total_incl: '1155.57' });
    expect(q.service_groups[1]?.totals).toMatchObject({ total_excl: '400.00', total_vat: '84.00', total_incl: '484.00' });
    // Extras: only the chosen book, at the low rate
    expect(q.service_groups[2]?.totals).toMatchObject({ total_excl: '25.00', total_vat: '2.25', total_incl: '27.25' });
  });

  it('2024-04: grand_totals', async () => {
    const q = await get(`/sales/quote/${ids.quote}`);
    // high: 955.02 + 400 = 1355.02 × 21% = 284.5542 → 284.55; low: 25 × 9% = 2.25
    expect(q.grand_totals).toMatchObject({ total_excl: '1380.02', total_vat: '286.80', total_incl: '1666.82' });
    expect(q).toMatchObject({ total_excl: '1380.02', total_vat: '286.80', total_incl: '1666.82' });
  });

  it('payment_term (GetPaymentTerm): the sale’s divergent payment term (2026-03), else the environment’s default', async () => {
    const q = await get(`/sales/quote/${ids.quote}`);
    expect(q.payment_term).toMatchObject({ name: '14 days', days: 14 });
    conforms('GetPaymentTerm', q.payment_term);
    const direct = await lookup('payment_term', `r.name = 'Direct debit'`);
    expect((await acme.v2('PUT', `/sales/sales/${ids.sale}`, { divergent_payment_term_id: direct })).status).toBe(200);
    expect((await get(`/sales/quote/${ids.quote}`)).payment_term).toMatchObject({ id: direct, days: 7, method: 'Direct Debit' });
    const unknown = await acme.v2('PUT', `/sales/sales/${ids.sale}`, { divergent_payment_term_id: 'paymentterm:nope' });
    expect(unknown.status, unknown.text).toBe(400);
    expect(errorsOf(unknown)).toContain('divergent_payment_term_id');
    expect((await acme.v2('PUT', `/sales/sales/${ids.sale}`, { divergent_payment_term_id: null })).status).toBe(200);
  });

  it('/sale/quote and /sale/quote/{id} are the same resource', async () => {
    expect(await get(`/sale/quote/${ids.quote}`)).toEqual(await get(`/sales/quote/${ids.quote}`));
    expect((await list<Row>(acme, '/sale/quote')).map((q) => q.id)).toEqual(
      (await list<Row>(acme, '/sales/quote')).map((q) => q.id),
    );
  });

  it('a page of quotes reads the stored totals in the same statement (the list equals the single reads)', async () => {
    const page = await list<Row>(acme, `/sales/quote?q[id]=${ids.quote}`);
    expect(page[0]).toEqual(await get(`/sales/quote/${ids.quote}`));
  });

  it('quote statuses form a flow: draft → sent (quoteemail records the send; no mail leaves) → accepted', async () => {
    expect((await get(`/sales/quote/${ids.quote}`)).receivers).toBeNull();
    const accepted = await lookup('quote_status', `r.key = 'accepted'`);
    const early = await acme.v2('PUT', `/sales/quote/${ids.quote}`, { quotestatus_id: accepted });
    expect(early.status).toBe(400);
    expect(errorsOf(early)).toContain('quotestatus_id');
    const sent = await acme.v2('PUT', `/sales/quoteemail/${ids.quote}`, {
      subject: 'Your quote',
      body: 'See attached',
      to: ['buyer@example.test'],
    });
    expect(sent.status, sent.text).toBe(200);
    const q = await get(`/sales/quote/${ids.quote}`);
    expect(q.quotestatus).toMatchObject({ label: 'Sent' });
    expect(q.sent_at).toMatch(/^\d{4}-/);
    // receivers: who the latest send went to, in the list read as in the single read
    expect(q.receivers).toEqual({ to: ['buyer@example.test'], cc: [], bcc: [] });
    const listed = await list<Row>(acme, `/sales/quote?q[id]=${encodeURIComponent(ids.quote as string)}`);
    expect(listed[0]?.receivers).toEqual(q.receivers);
    expect(await t.db.query('SELECT subject, "to" FROM quote_email WHERE quote_id = $1', [ids.quote])).toEqual([
      { subject: 'Your quote', to: ['buyer@example.test'] },
    ]);
    // a sent quote's services no longer change
    const edit = await acme.v2('PUT', `/sales/quote/${ids.quote}`, { service_groups: [] });
    expect(edit.status).toBe(400);
    expect((await acme.v2('PUT', `/sales/quote/${ids.quote}`, { quotestatus_id: accepted })).status).toBe(200);
    expect((await get(`/sales/quote/${ids.quote}`)).quotestatus).toMatchObject({ label: 'Accepted' });
  });
});

describe('the quote flow: draft → sent → accepted or rejected', () => {
  it('a rejected quote cannot be accepted; it may go back to draft; a step outside the flow changes nothing', async () => {
    const status = (key: string) => lookup('quote_status', `r.key = '${key}'`);
    const id = await post(acme, '/sales/quote', { sales_id: ids.sale, quote_subject: 'Flow' });
    expect((await acme.v2('PUT', `/sales/quote/${id}`, { quotestatus_id: await status('sent') })).status).toBe(200);
    expect((await acme.v2('PUT', `/sales/quote/${id}`, { quotestatus_id: await status('rejected') })).status).toBe(200);
    const before = await databaseFingerprint(t.db);
    const accept = await acme.v2('PUT', `/sales/quote/${id}`, {
      quotestatus_id: await status('accepted'),
      quote_subject: 'Changed',
    });
    expect(accept.status).toBe(400);
    expect(errorsOf(accept)).toContain('rejected quote cannot become accepted');
    expect(await databaseFingerprint(t.db)).toEqual(before);
    expect((await acme.v2('PUT', `/sales/quote/${id}`, { quotestatus_id: await status('draft') })).status).toBe(200);
    expect((await get(`/sales/quote/${id}`)).quotestatus).toMatchObject({ label: 'Draft' });
    expect((await acme.v2('DELETE', `/sales/quote/${id}`)).status).toBe(200);
  });
});

describe('converttoproject/{id}', () => {
  it('converting needs the projects write right beside the sales right', async () => {
    const seller = await t.user('acme', 'seller-only@acme.test', { sales: 'write', crm: 'read' });
    const projects = () => t.db.query('SELECT count(*)::int AS n FROM project');
    const before = await projects();
    expect((await seller.v2('GET', `/sales/converttoproject/${ids.sale}`)).status).toBe(403);
    expect(await projects()).toEqual(before);
  });

  it('creates the project and its services from the sale’s accepted quote in one transaction, and linked_projects shows it', async () => {
    const res = await acme.v2('GET', `/sales/converttoproject/${ids.sale}`);
    expect(res.status, res.text).toBe(200);
    const sale = (res.body as Envelope<Row & { linked_projects: Row[] }>).data;
    conforms('GetSales', sale);
    expect(sale.linked_projects).toHaveLength(1);
    const projectId = sale.linked_projects[0]?.id as string;
    expect(sale.linked_projects[0]).toMatchObject({
      name: 'Shop rebuild',
      has_services: true,
      is_pending_for_sale_approval: false,
    });
    const services = await t.db.query<{
      name: string;
      amount: string;
      price: string;
      invoice_method: string;
      revenue_group_id: string | null;
    }>(
      'SELECT name, amount::text, price::text, invoice_method, revenue_group_id FROM project_service WHERE project_id = $1 ORDER BY name',
      [projectId],
    );
    // the counted lines: all of Base, the chosen payment module, the chosen extra
    expect(services.map((s) => s.name)).toEqual(['Book', 'Design', 'Hosting setup', 'Hosting setup 2', 'Stripe']);
    expect(services.find((s) => s.name === 'Design')).toMatchObject({
      invoice_method: 'time_and_expenses',
      amount: '10.0000',
      price: '95.5000',
      revenue_group_id: ids.revenueGroup,
    });
    const hourTypes = await t.db.query(
      'SELECT h.billable FROM project_service_hour_type h JOIN project_service s ON s.id = h.project_service_id WHERE s.project_id = $1',
      [projectId],
    );
    expect(hourTypes).toEqual([{ billable: true }]);
    const costTypes = await t.db.query(
      `SELECT c.cost_type_id, c.tariff::text FROM project_service_cost_type c
         JOIN project_service s ON s.id = c.project_service_id WHERE s.project_id = $1`,
      [projectId],
    );
    expect(costTypes).toEqual([{ cost_type_id: ids.costType, tariff: '12.2500' }]);
    const events = await t.db.query<{ type: string }>(`SELECT type FROM event WHERE entity_id = $1`, [projectId]);
    expect(events.map((e) => e.type)).toEqual(['project.created']);
    // converting the same accepted quote again is a conflict
    expect((await acme.v2('GET', `/sales/converttoproject/${ids.sale}`)).status).toBe(409);
  });
});

describe('POST sales/sales/{id}/duplicate with copy_latest_quote (2025-01)', () => {
  it('copies the latest quote, with its groups, as a draft of the copy', async () => {
    const res = await acme.v2('POST', `/sales/sales/${ids.sale}/duplicate`, { copy_latest_quote: true });
    expect(res.status, res.text).toBe(200);
    const copy = (res.body as Envelope<{ id: string }>).data.id;
    const quotes = await list<Row & { service_groups: Row[] }>(acme, `/sales/quote?q[sales_id]=${copy}`);
    expect(quotes).toHaveLength(1);
    const original = await get<Row & { service_groups: Row[] }>(`/sales/quote/${ids.quote}`);
    expect(quotes[0]?.quotestatus).toMatchObject({ label: 'Draft' });
    expect(quotes[0]?.grand_totals).toEqual(original.grand_totals);
    expect(quotes[0]?.service_groups.map((g) => [g.name, g.type, g.totals])).toEqual(
      original.service_groups.map((g) => [g.name, g.type, g.totals]),
    );
    const none = await acme.v2('POST', `/sales/sales/${ids.sale}/duplicate`, { copy_latest_quote: false });
    expect(await list(acme, `/sales/quote?q[sales_id]=${(none.body as Envelope<{ id: string }>).data.id}`)).toEqual([]);
  });
});

describe('bad input answers 400 in v2 and 422 in v3, and changes nothing', () => {
  /** v3 has no command that writes a sale's reason (issue 12 lists none): that case is v2 only */
  type Case = [
    name: string,
    v2: () => [string, string, Record<string, unknown>],
    v3: (() => [string, Record<string, unknown>]) | null,
    field: string,
  ];
  const groups = (g: Record<string, unknown>[]) => ({ service_groups: g });
  const cases: Case[] = [
    [
      'a group type outside the enum',
      () => ['POST', '/sales/quote', quoteBody(groups([{ name: 'G', type: 'all_optional', services: [] }]))],
      () => ['/quote.create', { saleId: ids.sale, serviceGroups: [{ name: 'G', type: 'all_optional', services: [] }] }],
      'type',
    ],
    [
      'two choices in a single_required group',
      () => [
        'POST',
        '/sales/quote',
        quoteBody(
          groups([
            {
              name: 'G',
              type: 'single_required',
              services: [
                { name: 'A', price: 1, chosen: true },
                { name: 'B', price: 1, chosen: true },
              ],
            },
          ]),
        ),
      ],
      () => [
        '/quote.create',
        {
          saleId: ids.sale,
          serviceGroups: [
            {
              name: 'G',
              type: 'single_required',
              services: [
                { name: 'A', price: 1, chosen: true },
                { name: 'B', price: 1, chosen: true },
              ],
            },
          ],
        },
      ],
      'services',
    ],
    [
      'a negative quantity',
      () => ['POST', '/sales/quote', quoteBody(groups([{ name: 'G', services: [{ name: 'A', quantity: -1, price: 1 }] }]))],
      () => [
        '/quote.create',
        { saleId: ids.sale, serviceGroups: [{ name: 'G', services: [{ name: 'A', quantity: -1, price: 1 }] }] },
      ],
      'quantity',
    ],
    [
      'a blocked sales reason',
      () => ['PUT', `/sales/sales/${ids.plainSale}`, { reason: { id: ids.blockedReason } }],
      null,
      'reason',
    ],
    [
      'converting a sale without an accepted quote',
      () => ['GET', `/sales/converttoproject/${ids.plainSale}`, {}],
      () => [`/sale.convertToProject/${encodeURIComponent(ids.plainSale as string)}`, {}],
      'accepted quote',
    ],
  ];

  beforeAll(async () => {
    ids.plainSale = await post(acme, '/sales/sales', { subject: 'No quote accepted', organization_id: ids.org });
    await post(acme, '/sales/quote', { sales_id: ids.plainSale, quote_subject: 'Draft only' });
    ids.blockedReason = await lookup('sales_reason', 'r.blocked');
  });

  it.each(cases)('v2: %s', async (_name, v2, _v3, field) => {
    const [method, p, body] = v2();
    const before = await databaseFingerprint(t.db);
    const res = await acme.v2(method, p, method === 'GET' ? undefined : body);
    expect(res.status, res.text).toBe(400);
    expect(res.body).toMatchObject({ data: null });
    expect(errorsOf(res)).toContain(field);
    expect(await databaseFingerprint(t.db)).toEqual(before);
  });

  it.each(cases.filter(([, , v3]) => v3 !== null))('v3: %s', async (_name, _v2, v3, field) => {
    const [p, body] = (v3 as NonNullable<typeof v3>)();
    const before = await databaseFingerprint(t.db);
    const res = await acme.v3('POST', p, body);
    expect(res.status, res.text).toBe(422);
    expect(res.text).toContain(field);
    expect(await databaseFingerprint(t.db)).toEqual(before);
  });
});

describe('v3: sale.list, sale.get, quote.get, quote.create, quote.edit, quote.accept, sale.convertToProject', () => {
  it('the whole path through v3 in the published shapes, with webhook events recorded for every change', async () => {
    const saleId = await post(acme, '/sales/sales', { subject: 'Through v3', organization_id: ids.org });
    const listed = await acme.v3('GET', '/sale.list?subject=Through%20v3');
    expect(listed.status, listed.text).toBe(200);
    const items = (listed.body as { items: Row[] }).items;
    expect(items.map((s) => s.id)).toEqual([saleId]);
    for (const s of items) matches('Sales.Sale', s);
    matches('Sales.Sale', (await acme.v3('GET', `/sale.get/${encodeURIComponent(saleId)}`)).body);

    const created = await acme.v3('POST', '/quote.create', {
      saleId,
      quoteSubject: 'v3 quote',
      serviceGroups: [{ name: 'Only', services: [{ name: 'Work', quantity: 2, price: 10.125, vatClassId: ids.high }] }],
    });
    expect(created.status, created.text).toBe(201);
    const quoteId = (created.body as { id: string }).id;
    const got = await acme.v3('GET', `/quote.get/${encodeURIComponent(quoteId)}`);
    matches('Sales.Quote', got.body);
    // 2 × 10.125 = 20.25; VAT 21% = 4.2525 → 4.25
    expect(got.body).toMatchObject({ status: 'draft', grandTotals: { excl: '20.25', vat: '4.25', incl: '24.50' } });

    const edited = await acme.v3('POST', `/quote.edit/${encodeURIComponent(quoteId)}`, {
      serviceGroups: [{ name: 'Only', services: [{ name: 'Work', quantity: 3, price: 10, vatClassId: ids.low }] }],
    });
    expect(edited.status, edited.text).toBe(200);
    matches('Sales.Quote', edited.body);
    expect(edited.body).toMatchObject({ grandTotals: { excl: '30.00', vat: '2.70', incl: '32.70' } });

    const tooEarly = await acme.v3('POST', `/quote.accept/${encodeURIComponent(quoteId)}`, {});
    expect(tooEarly.status).toBe(422);
    expect((await acme.v2('PUT', `/sales/quoteemail/${quoteId}`, { subject: 'Quote', to: ['a@b.test'] })).status).toBe(200);
    const accepted = await acme.v3('POST', `/quote.accept/${encodeURIComponent(quoteId)}`, {});
    expect(accepted.status, accepted.text).toBe(200);
    expect(accepted.body).toMatchObject({ status: 'accepted' });

    const converted = await acme.v3('POST', `/sale.convertToProject/${encodeURIComponent(saleId)}`, {});
    expect(converted.status, converted.text).toBe(201);
    const projectId = (converted.body as { projectId: string }).projectId;
    expect((await acme.v3('GET', `/sale.get/${encodeURIComponent(saleId)}`)).body).toMatchObject({
      linkedProjectIds: [projectId],
    });

    const events = await t.db.query<{ type: string }>(`SELECT type FROM event WHERE entity_id = $1 ORDER BY seq`, [quoteId]);
    expect(events.map((e) => e.type)).toEqual([
      'quote.created',
      'quote.updated',
      'quote.updated',
      'quote.updated',
      'quote.updated',
    ]);
    const saleEvents = await t.db.query<{ type: string }>(`SELECT type FROM event WHERE entity_id = $1 ORDER BY seq`, [saleId]);
    expect(saleEvents.map((e) => e.type)).toEqual(['sale.created', 'sale.updated']);
  });

  it('another environment’s sale and quote answer 404', async () => {
    const theirs = await post(other, '/sales/sales', { subject: 'Theirs', organization_id: ids.otherOrg });
    expect((await acme.v3('GET', `/sale.get/${encodeURIComponent(theirs)}`)).status).toBe(404);
    expect((await acme.v3('GET', `/quote.get/${encodeURIComponent(ids.quote as string)}`)).status).toBe(200);
    expect((await other.v3('GET', `/quote.get/${encodeURIComponent(ids.quote as string)}`)).status).toBe(404);
    expect((await other.v2('GET', `/sales/service/${ids.service}`)).status).toBe(404);
  });
});
