import { request } from 'node:https';
import fc from 'fast-check';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeInvoiceAmounts } from '../packages/domain/src/invoices/invoice/invoice-totals.js';
import { v2Create, v2Get } from './support/projects.js';
import { databaseFingerprint } from './support/snapshot.js';
import { type ApiClient, startTestService, type TestService } from './support/service.js';
import { expectProblem } from './support/v3.js';

let t: TestService;
let acme: ApiClient;
let debtor: string;
let vat21: string;
let vat9: string;

type Line = {
  id: string;
  amount: number;
  price: number;
  total: number;
  total_vat: number;
  service_id: string | null;
  project_id: string | null;
};
type V2Invoice = {
  id: string;
  invoice_number: string | null;
  status: string;
  status_key: string;
  total_excluding_vat: number;
  total_vat: number;
  total_including_vat: number;
  total_outstanding: number;
  due_date: string | null;
  date: string | null;
  invoice_lines: Line[];
  organization: { id: string; name: string | null } | null;
  reminder: { status: string; next_action: string | null; days_overdue: number } | null;
};

beforeAll(async () => {
  t = await startTestService();
  acme = await t.environment('acme');
  debtor = await v2Create(acme, '/crm/organization', { name: 'Debtor Holding BV' });
  const classes = await v2Get<{ id: string; percentage: number }[]>(acme, '/invoices/vatclass');
  vat21 = classes.find((c) => c.percentage === 21)?.id ?? '';
  vat9 = classes.find((c) => c.percentage === 9)?.id ?? '';
  expect(vat21 && vat9).toBeTruthy();
});
afterAll(() => t?.stop());

async function draft(lines: Record<string, unknown>[], extra: Record<string, unknown> = {}): Promise<string> {
  return v2Create(acme, '/invoices/invoice', { organization_id: debtor, invoice_lines: lines, ...extra });
}

const getInvoice = (id: string) => v2Get<V2Invoice>(acme, `/invoices/invoice/${id}`);

async function send(id: string, body: Record<string, unknown> = {}) {
  const res = await acme.v3('POST', `/invoice.send/${id}`, body);
  expect(res.status, res.text).toBe(200);
  return res.body as { invoiceNumber: string; totalIncl: string; dueDate: string; status: string };
}

function download(id: string): Promise<{ status: number; type: string; bytes: Buffer }> {
  const token = acme.token as { key: string; secret: string };
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: acme.port,
        path: `/api/v2/documents/download/${id}`,
        headers: { host: acme.host, 'authentication-key': token.key, 'authentication-secret': token.secret },
        rejectUnauthorized: false,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type']), bytes: Buffer.concat(chunks) }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

const count = async (table: string) => (await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`))[0]?.n;

describe('invoices: amounts', () => {
  it('exact decimals: line amounts, VAT per class (rounded half up per line), totals; lines carry service and project ids', async () => {
    const project = await v2Create(acme, '/projects/project', { name: 'Website', organization_id: debtor });
    const id = await draft([
      { description: 'Design', amount: 3, price: 33.335, vat_class_id: vat21, project_id: project },
      { description: 'Book', amount: 1, price: 10.05, vat_class_id: vat9 },
      { description: 'Discount', amount: 1, price: -5, vat_class_id: vat21 },
    ]);
    const inv = await getInvoice(id);
    // 3 × 33.335 = 100.005 → 100.01; VAT 21% = 21.0021 → 21.00; 10.05 × 9% = 0.9045 → 0.90; -5 × 21% = -1.05
    expect(inv.invoice_lines.map((l) => [l.total, l.total_vat])).toEqual([
      [100.01, 21],
      [10.05, 0.9],
      [-5, -1.05],
    ]);
    expect(inv.invoice_lines[0]?.project_id).toBe(project);
    expect(inv.organization).toEqual({ id: debtor, name: 'Debtor Holding BV', relation_number: null });
    expect(inv).toMatchObject({ total_excluding_vat: 105.06, total_vat: 20.85, total_including_vat: 125.91, status: 'Concept' });
    expect(inv.invoice_number).toBeNull();
  });

  it('property: an invoice’s totals always equal the sums of its lines', () => {
    const decimal = (max: number, scale: number) =>
      fc.integer({ min: -max * 10 ** scale, max: max * 10 ** scale }).map((n) => (n / 10 ** scale).toFixed(scale));
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            quantity: decimal(1000, 4),
            price: decimal(100000, 4),
            vatPercentage: fc.constantFrom('0', '9', '21', '6.5'),
          }),
          {
            maxLength: 40,
          },
        ),
        (lines) => {
          const a = computeInvoiceAmounts(lines);
          const sum = (xs: string[]) => xs.reduce((s, x) => s + BigInt(x.replace('.', '')), 0n);
          expect(BigInt(a.excl.replace('.', ''))).toBe(sum(a.lines.map((l) => l.amount)));
          expect(BigInt(a.vat.replace('.', ''))).toBe(sum(a.lines.map((l) => l.vat)));
          expect(BigInt(a.incl.replace('.', ''))).toBe(BigInt(a.excl.replace('.', '')) + BigInt(a.vat.replace('.', '')));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('property: the stored totals of every invoice equal the sums of its stored lines', async () => {
    const rows = await t.db.query<{ bad: number }>(
      `SELECT count(*)::int AS bad FROM invoice i
        WHERE COALESCE(i.total_amount, 0) <> COALESCE((SELECT sum(amount) FROM invoice_line l WHERE l.invoice_id = i.id), 0)
           OR i.total_vat <> COALESCE((SELECT sum(vat_amount) FROM invoice_line l WHERE l.invoice_id = i.id), 0)
           OR i.total_incl <> COALESCE(i.total_amount, 0) + i.total_vat`,
    );
    expect(rows).toEqual([{ bad: 0 }]);
    expect(await count('invoice')).toBeGreaterThan(0);
  });
});

describe('invoices: statuses, numbers, payments, documents', () => {
  it('numbers are gapless and sequential, given when an invoice leaves draft; payment terms give the due date', async () => {
    const terms = await v2Get<{ id: string; days: number }[]>(acme, '/invoices/paymentterm');
    const thirty = terms.find((x) => x.days === 30)?.id;
    const a = await draft([{ description: 'A', amount: 1, price: 100, vat_class_id: vat21 }], {
      payment_term_id: thirty,
      date: '2026-01-10',
    });
    const b = await draft([{ description: 'B', amount: 1, price: 50 }]);
    const sentA = await send(a);
    const sentB = await send(b, { invoiceDate: '2026-02-01' });
    expect(Number(sentB.invoiceNumber)).toBe(Number(sentA.invoiceNumber) + 1);
    expect(sentA.dueDate).toBe('2026-02-09');
    expect(sentB.dueDate).toBe('2026-02-15'); // the default term: 14 days
    // a sent invoice is not sent again
    expectProblem(await acme.v3('POST', `/invoice.send/${a}`, {}), 422);
  });

  it('a rolled-back transaction leaves no gap in the numbers', async () => {
    // the database refuses the sending update of one invoice, after its number was drawn
    await t.db.query(`CREATE OR REPLACE FUNCTION test_refuse_send() RETURNS trigger AS $$
      BEGIN RAISE EXCEPTION 'refused by the test' USING ERRCODE = '22023'; END $$ LANGUAGE plpgsql`);
    await t.db.query(`CREATE TRIGGER test_refuse_send BEFORE UPDATE ON invoice FOR EACH ROW
      WHEN (NEW.status = 'sent' AND NEW.subject = 'refuse me') EXECUTE FUNCTION test_refuse_send()`);
    const first = await send(await draft([{ description: 'x', amount: 1, price: 1 }]));
    const refused = await draft([{ description: 'y', amount: 1, price: 1 }], { subject: 'refuse me' });
    expectProblem(await acme.v3('POST', `/invoice.send/${refused}`, {}), 400);
    expect((await getInvoice(refused)).invoice_number).toBeNull();
    const next = await send(await draft([{ description: 'z', amount: 1, price: 1 }]));
    expect(Number(next.invoiceNumber)).toBe(Number(first.invoiceNumber) + 1);
    const numbers = await t.db.query<{ n: number }>(
      'SELECT invoice_sequence AS n FROM invoice WHERE invoice_sequence IS NOT NULL ORDER BY 1',
    );
    expect(numbers.map((r) => r.n)).toEqual(numbers.map((_r, i) => i + 1));
  });

  it('payments reduce the open amount; partially paid, then paid; overpayment is refused unless marked', async () => {
    const id = await draft([{ description: 'Work', amount: 2, price: 50, vat_class_id: vat21 }]);
    await send(id);
    expect((await getInvoice(id)).total_outstanding).toBe(121);
    const p1 = await v2Create(acme, '/invoices/payment', { invoice_id: id, date: '2026-03-01', amount: 21 });
    expect(await getInvoice(id)).toMatchObject({ total_outstanding: 100, status_key: 'partially_paid' });
    // more than the open 100 is refused, and nothing changes
    const before = await count('payment');
    const over = await acme.v2('POST', '/invoices/payment', { invoice_id: id, date: '2026-03-02', amount: 100.01 });
    expect(over.status, over.text).toBe(400);
    expect(await count('payment')).toBe(before);
    // marked as an overpayment it is accepted
    const v3 = await acme.v3('POST', '/payment.register', {
      invoiceId: id,
      date: '2026-03-02',
      amount: 100.5,
      isOverpayment: true,
    });
    expect(v3.status, v3.text).toBe(201);
    expect(await getInvoice(id)).toMatchObject({ total_outstanding: -0.5, status: 'Paid', status_key: 'paid' });
    // PUT a payment: the open amount follows
    const put = await acme.v2('PUT', `/invoices/payment/${p1}`, { amount: 20 });
    expect(put.status, put.text).toBe(200);
    expect((await getInvoice(id)).total_outstanding).toBe(0.5);
    const list = await v2Get<{ invoice_id: string; amount: number }[]>(acme, `/invoices/payment?q[invoice_id]=${id}`);
    expect(list.map((p) => p.amount).sort()).toEqual([100.5, 20]);
  });

  it('a sent invoice has a real PDF: stored, linked, listed by invoices/document?q[linked_to.invoice_id]=, downloadable as application/pdf', async () => {
    // our company profile is kept as an organization with an address (crm/myorganizationprofile)
    const company = await v2Create(acme, '/crm/organization', {
      name: 'Our Company BV',
      visiting_address: { line_1: 'Canal 12', postal_code: '1012 AB', locality: 'Amsterdam', country_code: 'NL' },
    });
    await t.db.query(
      'UPDATE my_organization_profile SET organization_id = $1 WHERE environment_id = (SELECT environment_id FROM organization WHERE id = $1)',
      [company],
    );
    const id = await draft([
      { description: 'Consultancy', amount: 10, price: 95.5, vat_class_id: vat21 },
      { description: 'Books', amount: 2, price: 12.25, vat_class_id: vat9 },
    ]);
    const sent = await send(id, { invoiceDate: '2026-04-01' });
    const docs = await v2Get<{ id: string; download_url: string; title: string }[]>(
      acme,
      `/invoices/document?q[linked_to.invoice_id]=${id}`,
    );
    expect(docs).toHaveLength(1);
    const file = await download(docs[0]?.id ?? '');
    expect(file.status).toBe(200);
    expect(file.type).toContain('application/pdf');
    expect(file.bytes.subarray(0, 5).toString()).toBe('%PDF-');
    const pdf = await getDocumentProxy(new Uint8Array(file.bytes));
    const { text } = await extractText(pdf, { mergePages: true });
    expect(text).toContain(`Invoice number: ${sent.invoiceNumber}`);
    expect(text).toContain('Debtor Holding BV');
    expect(text).toContain('Our Company BV');
    expect(text).toContain('Canal 12');
    expect(text).toContain('1012 AB Amsterdam');
    expect(text).toContain('Consultancy');
    expect(text).toContain('VAT 21% over EUR 955.00: EUR 200.55');
    // 955.00 + 24.50 = 979.50; VAT 200.55 + 2.21 = 202.76 (2.205 rounds half up); incl 1182.26
    expect(text).toContain('Total excluding VAT: EUR 979.50');
    expect(text).toContain('Total VAT: EUR 202.76');
    expect(text).toContain(`Total including VAT: EUR ${sent.totalIncl}`);
    expect(sent.totalIncl).toBe('1182.26');
    expect(text).toContain('Due date: 2026-04-15');
    // the rendered PDF stays with the invoice, whichever door the write comes through
    const pdfId = docs[0]?.id as string;
    const before = await databaseFingerprint(t.db);
    for (const [method, p, body] of [
      ['DELETE', `/invoices/document/${pdfId}`, undefined],
      ['DELETE', `/documents/document/${pdfId}`, undefined],
      ['PUT', '/documents/document', { id: pdfId, linked_to: [{ organization_id: debtor }] }],
    ] as const) {
      const res = await acme.v2(method, p, body);
      expect(res.status, `${method} ${p}: ${res.text}`).toBe(400);
      expect(res.text).toContain('kept with the invoice');
    }
    expect(await databaseFingerprint(t.db)).toEqual(before);
  });

  it('credit: a credit invoice reverses a sent invoice; the original becomes credited; a draft is deleted, a sent invoice never', async () => {
    const id = await draft([{ description: 'Licence', amount: 1, price: 200, vat_class_id: vat21 }]);
    // a draft can be deleted
    const gone = await draft([{ description: 'Temp', amount: 1, price: 1 }]);
    expect((await acme.v2('DELETE', `/invoices/invoice/${gone}`)).status).toBe(200);
    expect((await acme.v2('GET', `/invoices/invoice/${gone}`)).status).toBe(404);
    await send(id);
    const before = await count('invoice');
    const del = await acme.v2('DELETE', `/invoices/invoice/${id}`);
    expect(del.status, del.text).toBe(400);
    expect(await count('invoice')).toBe(before);
    const res = await acme.v3('POST', `/invoice.credit/${id}`, { reason: 'wrong licence' });
    expect(res.status, res.text).toBe(201);
    const credit = res.body as { kind: string; invoiceNumber: string; totalIncl: string; creditedInvoiceId: string };
    expect(credit).toMatchObject({ kind: 'credit', totalIncl: '-242.00', creditedInvoiceId: id });
    expect(credit.invoiceNumber).toMatch(/^\d+$/);
    expect(await getInvoice(id)).toMatchObject({ status_key: 'credited', total_outstanding: 0 });
    expectProblem(await acme.v3('POST', `/invoice.credit/${id}`, {}), 422);
  });

  it('reminders follow the reminder set: an overdue invoice shows the reminder it is due for and the next', async () => {
    const id = await draft([{ description: 'Old work', amount: 1, price: 10 }]);
    const past = new Date(Date.now() - 40 * 86_400_000).toISOString().slice(0, 10);
    await send(id, { invoiceDate: past });
    const inv = await getInvoice(id);
    // due 14 days after: 26 days overdue → the first (7) and second (21) reminders have passed; the final (35) is next
    expect(inv.status).toBe('Overdue');
    expect(inv.reminder).toMatchObject({ status: 'Second reminder', days_overdue: 26 });
    expect(inv.reminder?.next_action).toContain('Final notice');
    const sets = await v2Get<{ label: string; templates: { send_after: number }[] }[]>(acme, '/invoices/reminderset');
    expect(sets[0]?.templates.map((s) => s.send_after)).toEqual([7, 21, 35]);
    expect((await v2Get<unknown[]>(acme, '/invoices/remindertemplate')).length).toBe(3);
  });

  it('the lookups answer: invoicestatus, paymentterm, vatclass, documenttype, proposition', async () => {
    const statuses = await v2Get<{ name: string }[]>(acme, '/invoices/invoicestatus');
    expect(statuses.map((s) => s.name)).toEqual(['Concept', 'Sent', 'Partially paid', 'Paid', 'Overdue', 'Credited']);
    expect((await v2Get<unknown[]>(acme, '/invoices/documenttype')).length).toBeGreaterThan(0);
    expect((await v2Get<unknown[]>(acme, '/invoices/proposition')).length).toBeGreaterThan(0);
  });
});

describe('invoices: bad input answers 400 in v2 and 422 in v3, and nothing changes', () => {
  it('a payment on a draft, a negative amount, editing or deleting a sent invoice, an unknown VAT class', async () => {
    const draftId = await draft([{ description: 'D', amount: 1, price: 10 }]);
    const sentId = await draft([{ description: 'S', amount: 1, price: 10 }]);
    await send(sentId);
    const snapshot = async () =>
      t.db.query('SELECT id, status, total_amount::text, total_paid::text, updated_at FROM invoice ORDER BY id');
    const before = { invoices: await snapshot(), payments: await count('payment'), lines: await count('invoice_line') };

    expect((await acme.v2('POST', '/invoices/payment', { invoice_id: draftId, date: '2026-01-01', amount: 5 })).status).toBe(400);
    expectProblem(await acme.v3('POST', '/payment.register', { invoiceId: draftId, date: '2026-01-01', amount: 5 }), 422);
    expect((await acme.v2('POST', '/invoices/payment', { invoice_id: sentId, date: '2026-01-01', amount: -5 })).status).toBe(400);
    expectProblem(await acme.v3('POST', '/payment.register', { invoiceId: sentId, date: '2026-01-01', amount: -5 }), 422);
    expect((await acme.v2('PUT', `/invoices/invoice/${sentId}`, { subject: 'changed' })).status).toBe(400);
    expect((await acme.v2('DELETE', `/invoices/invoice/${sentId}`)).status).toBe(400);
    const unknownVat = await acme.v2('POST', '/invoices/invoice', {
      organization_id: debtor,
      invoice_lines: [{ description: 'x', amount: 1, price: 1, vat_class_id: 'vatclass:missing' }],
    });
    expect(unknownVat.status, unknownVat.text).toBe(400);
    expect(unknownVat.text).toContain('invoice_lines.0.vat_class_id');
    expect(
      (await acme.v2('PUT', `/invoices/invoice/${draftId}`, { invoice_lines: [{ price: 1, vat_class_id: 'nope' }] })).status,
    ).toBe(400);
    expectProblem(await acme.v3('POST', '/invoice.send/invoice:missing', {}), 404);
    const v3Unknown = await acme.v3('POST', '/invoice.create', {
      organizationId: debtor,
      lines: [{ description: 'x', price: 1, vatClassId: 'vatclass:missing' }],
    });
    expect(expectProblem(v3Unknown, 422).violations?.map((v) => v.propertyPath)).toEqual(['lines.0.vatClassId']);
    // sending (editing) a sent invoice again is refused
    expectProblem(await acme.v3('POST', `/invoice.send/${sentId}`, {}), 422);

    expect(await snapshot()).toEqual(before.invoices);
    expect(await count('payment')).toBe(before.payments);
    expect(await count('invoice_line')).toBe(before.lines);
  });
});

describe('invoices: what clients of the reference read', () => {
  it('invoices per year, invoiced per service and invoice lines per year, with the revenue group', async () => {
    const p = await v2Create(acme, '/projects/project', { name: 'Yearly', organization_id: debtor });
    const res = await acme.v3('POST', '/projectService.create', {
      projectId: p,
      name: 'Yearly service',
      invoiceMethod: 'fixed_price',
      price: 1,
    });
    expect(res.status, res.text).toBe(201);
    const serviceId = (res.body as { id: string }).id;
    const groups = await v2Get<{ id: string; label: string }[]>(acme, '/sales/revenuegroup');
    const group = groups[0] as { id: string; label: string };
    const make = (date: string, price: number) =>
      draft([{ description: 'y', amount: 1, price, service_id: serviceId, project_id: p, revenue_group_id: group.id, date }], {
        date,
      });
    const a = await make('2025-12-31', 100);
    const b = await make('2026-01-01', 200);
    const c = await make('2026-07-01', 300);
    for (const id of [a, b, c]) await send(id);
    const y2026 = await v2Get<V2Invoice[]>(
      acme,
      `/invoices/invoice?q[date][ge]=2026-01-01&q[date][le]=2026-12-31&q[invoice_lines.service_id]=${serviceId}&sort=date`,
    );
    expect(y2026.map((i) => i.id)).toEqual([b, c]);
    const perService = await v2Get<V2Invoice[]>(acme, `/invoices/invoice?q[invoice_lines.service_id]=${serviceId}`);
    const lines = perService.flatMap((i) => i.invoice_lines.filter((l) => l.service_id === serviceId));
    expect(lines.reduce((sum, l) => sum + l.total, 0)).toBe(600);
    expect(lines[0]).toMatchObject({ project_id: p, revenue_group: { id: group.id, label: group.label }, date: '2025-12-31' });
    // the service read shows what was invoiced of it
    expect(await v2Get(acme, `/projects/service/${serviceId}`)).toMatchObject({ invoiced_amount: 600 });
  });

  it('status_id of the reference: the Sent status sends a draft through v2; Paid or Credited is refused', async () => {
    const statuses = await v2Get<{ id: string; key: string }[]>(acme, '/invoices/invoicestatus');
    const byKey = (k: string) => statuses.find((s) => s.key === k)?.id;
    const id = await draft([{ description: 'via v2', amount: 1, price: 80 }]);
    const paid = await acme.v2('PUT', `/invoices/invoice/${id}`, { status_id: byKey('paid') });
    expect(paid.status, paid.text).toBe(400);
    expect((await getInvoice(id)).status).toBe('Concept');
    const put = await acme.v2('PUT', `/invoices/invoice/${id}`, { status_id: byKey('sent'), subject: 'Sent through v2' });
    expect(put.status, put.text).toBe(200);
    const inv = await getInvoice(id);
    expect(inv.status).toBe('Sent');
    expect(inv.invoice_number).toMatch(/^\d+$/);
    const posted = await v2Create(acme, '/invoices/invoice', {
      organization_id: debtor,
      status_id: byKey('sent'),
      invoice_lines: [{ description: 'posted and sent', amount: 1, price: 5 }],
    });
    expect(Number((await getInvoice(posted)).invoice_number)).toBe(Number(inv.invoice_number) + 1);
  });

  it('concurrent sends get distinct, consecutive numbers', async () => {
    const ids = await Promise.all(Array.from({ length: 8 }, (_, i) => draft([{ description: `c${i}`, amount: 1, price: 1 }])));
    const sent = await Promise.all(ids.map((id) => acme.v3('POST', `/invoice.send/${id}`, {})));
    for (const r of sent) expect(r.status, r.text).toBe(200);
    const numbers = sent.map((r) => Number((r.body as { invoiceNumber: string }).invoiceNumber)).sort((x, y) => x - y);
    expect(numbers).toEqual(numbers.map((_n, i) => (numbers[0] as number) + i));
    const all = await t.db.query<{ n: number }>(
      'SELECT invoice_sequence AS n FROM invoice WHERE invoice_sequence IS NOT NULL ORDER BY 1',
    );
    expect(all.map((r) => r.n)).toEqual(all.map((_r, i) => i + 1));
  });

  it('rights: reading needs the invoices read right, writing the write right', async () => {
    const reader = await t.user('acme', 'reader@acme.test', { invoices: 'read' });
    const nobody = await t.user('acme', 'nobody@acme.test', {});
    const readerList = await reader.v2('GET', '/invoices/invoice');
    expect(readerList.status, readerList.text.slice(0, 600)).toBe(200);
    expect((await reader.v2('POST', '/invoices/invoice', { invoice_lines: [] })).status).toBe(403);
    expect((await nobody.v2('GET', '/invoices/invoice')).status).toBe(403);
    expect((await nobody.v2('GET', '/invoices/payment')).status).toBe(403);
    expectProblem(await reader.v3('POST', '/payment.register', { invoiceId: 'x', date: '2026-01-01', amount: 1 }), 403);
  });
});

describe('invoices: v3', () => {
  it('invoice.create, invoice.list and invoice.get answer the invoice with exact totals', async () => {
    const own = await v2Create(acme, '/crm/organization', { name: 'v3 Debtor' });
    const res = await acme.v3('POST', '/invoice.create', {
      organizationId: own,
      lines: [{ description: 'v3 line', quantity: 2, price: 10.125, vatClassId: vat21 }],
    });
    expect(res.status, res.text).toBe(201);
    const created = res.body as { id: string; totalExcl: string; totalVat: string; totalIncl: string; status: string };
    expect(created).toMatchObject({ totalExcl: '20.25', totalVat: '4.25', totalIncl: '24.50', status: 'draft' });
    const got = await acme.v3('GET', `/invoice.get/${created.id}`);
    expect(got.status, got.text).toBe(200);
    expect(got.body).toMatchObject({ id: created.id, totalIncl: '24.50' });
    const list = await acme.v3('GET', `/invoice.list?status=draft&organizationId=${own}&itemsPerPage=30`);
    expect(list.status, list.text).toBe(200);
    expect(JSON.stringify(list.body)).toContain(created.id);
  });
});

describe('invoices: webhook events', () => {
  it('every invoice and payment change is an event', async () => {
    const id = await draft([{ description: 'E', amount: 1, price: 10 }]);
    await acme.v2('PUT', `/invoices/invoice/${id}`, { subject: 'Evented' });
    await send(id);
    await v2Create(acme, '/invoices/payment', { invoice_id: id, date: '2026-01-01', amount: 5 });
    const events = await t.db.query<{ type: string }>('SELECT type FROM event WHERE entity_id = $1 ORDER BY id', [id]);
    expect(events.map((e) => e.type)).toEqual(['invoice.created', 'invoice.updated', 'invoice.updated', 'invoice.updated']);
    const payments = await t.db.query<{ type: string }>(`SELECT type FROM event WHERE type LIKE 'payment.%'`);
    expect(payments.length).toBeGreaterThan(0);
  });
});
