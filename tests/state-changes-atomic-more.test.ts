import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Envelope, post, referenceId } from './support/crm.js';
import type { HttpResponse } from './support/http.js';
import { type ApiClient, startTestService, type TestService } from './support/service.js';

/**
 * Every state change is atomic with the writes it governs (issue 28 §4), for an invoice's
 * sending and crediting (and the payments on it), a quote's acceptance and its conversion
 * to a project, and a workflow's task completion: the writers and the transition sent at
 * the same moment, many rounds, and afterwards no row the final state forbids.
 */

let t: TestService;
let acme: ApiClient;
let debtor: string;

beforeAll(async () => {
  t = await startTestService();
  acme = await t.environment('race-more');
  debtor = await post(acme, '/crm/organization', { name: 'Race Debtor BV' });
});
afterAll(() => t?.stop());

const ROUNDS = 6;
const enc = encodeURIComponent;

/** no answer of a race is a server error: each is the write or its refusal */
function noServerError(responses: HttpResponse[]): void {
  for (const res of responses) expect(res.status, res.text).toBeLessThan(500);
}

const ok = (responses: HttpResponse[]) => responses.filter((r) => r.status >= 200 && r.status < 300).length;

describe('an invoice’s sending and crediting, against edits, deletion and payments', () => {
  const draft = (n: number) =>
    post(acme, '/invoices/invoice', {
      organization_id: debtor,
      subject: `race ${n}`,
      invoice_lines: [{ description: 'Work', amount: 1, price: 100 }],
    });

  it('a draft sent three times at once, while its lines are edited, it is deleted and paid: one number, lines as sent, no payment on a draft', async () => {
    const sentStatus = await referenceId(t, 'race-more', 'invoice_status', `r.key = 'sent'`);
    for (let round = 0; round < ROUNDS; round++) {
      const id = await draft(round);
      const [counterBefore] = await t.db.query<{ n: number }>(
        `SELECT coalesce(max(c.last_number), 0)::int AS n FROM invoice_number_counter c JOIN environment e ON e.id = c.environment_id WHERE e.name = 'race-more'`,
      );
      // sent through v3 twice and through v2 (status_id of the Sent status) once
      const sends = [
        acme.v3('POST', `/invoice.send/${enc(id)}`, {}),
        acme.v2('PUT', `/invoices/invoice/${id}`, { status_id: sentStatus }),
        acme.v3('POST', `/invoice.send/${enc(id)}`, {}),
      ];
      const edits = Array.from({ length: 3 }, (_, i) =>
        acme.v2('PUT', `/invoices/invoice/${id}`, { invoice_lines: [{ description: `Edit ${i}`, amount: 2 + i, price: 100 }] }),
      );
      const pays = Array.from({ length: 2 }, () =>
        acme.v3('POST', '/payment.register', { invoiceId: id, date: '2026-05-01', amount: 10 }),
      );
      const deletes = round % 2 === 0 ? [acme.v2('DELETE', `/invoices/invoice/${id}`)] : [];
      const [sent, edited, paid, deleted] = await Promise.all([
        Promise.all(sends),
        Promise.all(edits),
        Promise.all(pays),
        Promise.all(deletes),
      ]);
      noServerError([...sent, ...edited, ...paid, ...deleted]);
      expect(ok(sent), `round ${round}: at most one send`).toBeLessThanOrEqual(1);
      const [row] = await t.db.query<{ status: string; number: string | null; total: string }>(
        `SELECT status, invoice_number AS number, total_amount::text AS total FROM invoice WHERE id = $1`,
        [id],
      );
      const [counterAfter] = await t.db.query<{ n: number }>(
        `SELECT coalesce(max(c.last_number), 0)::int AS n FROM invoice_number_counter c JOIN environment e ON e.id = c.environment_id WHERE e.name = 'race-more'`,
      );
      // one number drawn per invoice sent, none for a refused or deleted one
      expect((counterAfter?.n ?? 0) - (counterBefore?.n ?? 0), `round ${round}`).toBe(ok(sent));
      const payments = await t.db.query<{ amount: string }>('SELECT amount::text FROM payment WHERE invoice_id = $1', [id]);
      if (!row) {
        // deleted: it was never sent, and nothing of it is left
        expect(ok(sent)).toBe(0);
        expect(payments).toEqual([]);
        expect(await t.db.query('SELECT id FROM invoice_line WHERE invoice_id = $1', [id])).toEqual([]);
        continue;
      }
      if (ok(sent) === 0) {
        expect(row.status).toBe('draft');
        expect(payments).toEqual([]);
        continue;
      }
      expect(row.number, `round ${round}`).not.toBeNull();
      expect(await t.db.query('SELECT id FROM invoice WHERE invoice_number = $1 AND id <> $2', [row.number, id])).toEqual([]);
      // the lines are the ones it was sent with: the invoice as its sending recorded it (its first
      // event that says sent) is the invoice as it is now; no edit was written after the sending
      const lines = await t.db.query<{ description: string; amount: string }>(
        'SELECT description, amount::text FROM invoice_line WHERE invoice_id = $1 ORDER BY description',
        [id],
      );
      expect(lines.length).toBe(1);
      expect(Number(lines[0]?.amount)).toBe(Number(row.total));
      const [atSending] = await t.db.query<{ total: string; descriptions: string[] }>(
        `SELECT e.data::jsonb->>'totalExcl' AS total,
                (SELECT array_agg(l->>'description' ORDER BY l->>'description') FROM jsonb_array_elements(e.data::jsonb->'lines') l) AS descriptions
           FROM event e WHERE e.entity_id = $1 AND e.data::jsonb->>'status' = 'sent' ORDER BY e.seq LIMIT 1`,
        [id],
      );
      expect(atSending?.descriptions, `round ${round}`).toEqual(lines.map((l) => l.description));
      expect(Number(atSending?.total)).toBe(Number(row.total));
      // every payment answered 200 is there, on the sent invoice
      expect(payments.length).toBe(ok(paid));
    }
  });

  it('a sent invoice credited three times at once while it is paid and edited: one credit invoice, credited, its payments as answered', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const id = await draft(100 + round);
      expect((await acme.v3('POST', `/invoice.send/${enc(id)}`, {})).status).toBe(200);
      // a payment made before the race, changed during it
      const first = await acme.v3('POST', '/payment.register', { invoiceId: id, date: '2026-05-01', amount: 10 });
      expect(first.status, first.text).toBe(201);
      const firstId = (first.body as { id: string }).id;
      const credits = Array.from({ length: 3 }, () => acme.v3('POST', `/invoice.credit/${enc(id)}`, { reason: 'race' }));
      // four payments of 30 on an invoice of 100 (10 paid): at most three fit, the fourth would overpay
      const pays = Array.from({ length: 4 }, () =>
        acme.v3('POST', '/payment.register', { invoiceId: id, date: '2026-05-01', amount: 30 }),
      );
      const payEdit = acme.v2('PUT', `/invoices/payment/${firstId}`, { amount: 5 });
      const edit = acme.v2('PUT', `/invoices/invoice/${id}`, { subject: 'changed after sending' });
      const [credited, paid, edited, payEdited] = await Promise.all([Promise.all(credits), Promise.all(pays), edit, payEdit]);
      noServerError([...credited, ...paid, edited, payEdited]);
      expect(ok(credited), `round ${round}`).toBe(1);
      expect(edited.status).toBe(400);
      const creditRows = await t.db.query('SELECT id FROM invoice WHERE credited_invoice_id = $1', [id]);
      expect(creditRows.length, `round ${round}: one credit invoice`).toBe(1);
      const [row] = await t.db.query<{ status: string; paid: string; subject: string }>(
        'SELECT status, total_paid::text AS paid, subject FROM invoice WHERE id = $1',
        [id],
      );
      // the final state is credited: no payment moved it back to (partially) paid
      expect(row?.status, `round ${round}`).toBe('credited');
      expect(row?.subject).toBe(`race ${100 + round}`);
      const payments = await t.db.query<{ amount: string }>('SELECT amount::text FROM payment WHERE invoice_id = $1', [id]);
      expect(payments.length).toBe(ok(paid) + 1);
      const sum = payments.reduce((s, p) => s + Number(p.amount), 0);
      expect(Number(row?.paid)).toBe(sum);
      expect(sum, `round ${round}: no overpayment`).toBeLessThanOrEqual(100);
      // the edit of the first payment is either in, or refused because the invoice is credited
      expect(payments.map((p) => Number(p.amount))).toContain(payEdited.status === 200 ? 5 : 10);
    }
  });
});

describe('a quote’s acceptance and its conversion to a project', () => {
  const status = (key: string) => referenceId(t, 'race-more', 'quote_status', `r.key = '${key}'`);

  async function sentQuote(sale: string, n: number): Promise<string> {
    const id = await post(acme, '/sales/quote', {
      sales_id: sale,
      quote_subject: `Race quote ${n}`,
      service_groups: [{ name: 'G', services: [{ name: 'Work', quantity: 2, price: 50 }] }],
    });
    const sent = await acme.v2('PUT', `/sales/quoteemail/${id}`, { subject: 'Quote', to: ['buyer@example.test'] });
    expect(sent.status, sent.text).toBe(200);
    return id;
  }

  it('a quote accepted twice and its sale converted three times at once: one project, from the accepted quote', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const sale = await post(acme, '/sales/sales', { subject: `Race sale ${round}`, organization_id: debtor });
      const quote = await sentQuote(sale, round);
      // accepted first in half the rounds, at the same moment as the conversions in the other half
      if (round % 2 === 0) expect((await acme.v3('POST', `/quote.accept/${enc(quote)}`, {})).status).toBe(200);
      const accepts = Array.from({ length: 2 }, () => acme.v3('POST', `/quote.accept/${enc(quote)}`, {}));
      const converts = Array.from({ length: 3 }, () => acme.v2('GET', `/sales/converttoproject/${sale}`));
      // in the last rounds the sale itself is deleted at the same moment
      const removes = round >= ROUNDS - 2 ? [acme.v2('DELETE', `/sales/sales/${sale}`)] : [];
      const [accepted, converted, removed] = await Promise.all([
        Promise.all(accepts),
        Promise.all(converts),
        Promise.all(removes),
      ]);
      noServerError([...accepted, ...converted, ...removed]);
      if (removed.some((r) => r.status === 200)) {
        // the sale went with its quotes and links; a project converted before stays, named by nothing of the sale
        expect(await t.db.query('SELECT 1 FROM quote WHERE sale_id = $1', [sale])).toEqual([]);
        expect(await t.db.query('SELECT 1 FROM sale_project WHERE sale_id = $1', [sale])).toEqual([]);
        expect(ok(converted)).toBeLessThanOrEqual(1);
        continue;
      }
      const links = await t.db.query<{ project_id: string }>('SELECT project_id FROM sale_project WHERE sale_id = $1', [sale]);
      expect(links.length, `round ${round}: one project`).toBe(ok(converted));
      expect(links.length).toBeLessThanOrEqual(1);
      if (round % 2 === 0) expect(links.length).toBe(1);
      const [q] = await t.db.query<{ project_id: string | null; key: string }>(
        'SELECT q.project_id, s.key FROM quote q JOIN quote_status s ON s.id = q.quote_status_id WHERE q.id = $1',
        [quote],
      );
      expect(q?.key).toBe('accepted');
      expect(q?.project_id ?? null).toBe(links[0]?.project_id ?? null);
      for (const link of links) {
        const services = await t.db.query('SELECT id FROM project_service WHERE project_id = $1', [link.project_id]);
        expect(services.length).toBe(1);
      }
    }
  });

  it('a quote accepted while it is sent back to draft, its lines changed and it is deleted: an accepted quote keeps the lines it was accepted with', async () => {
    const draft = await status('draft');
    for (let round = 0; round < ROUNDS; round++) {
      const sale = await post(acme, '/sales/sales', { subject: `Race lines ${round}`, organization_id: debtor });
      const quote = await sentQuote(sale, 100 + round);
      // in the rounds with a deletion, the quote is accepted first: its conversion and its deletion meet
      if (round % 2 === 1) expect((await acme.v3('POST', `/quote.accept/${enc(quote)}`, {})).status).toBe(200);
      const accept = acme.v3('POST', `/quote.accept/${enc(quote)}`, {});
      const back = acme.v2('PUT', `/sales/quote/${quote}`, { quotestatus_id: draft });
      const lines = Array.from({ length: 2 }, (_, i) =>
        acme.v2('PUT', `/sales/quote/${quote}`, {
          service_groups: [{ name: 'G', services: [{ name: `Changed ${i}`, quantity: 9, price: 9 }] }],
        }),
      );
      const convert = acme.v2('GET', `/sales/converttoproject/${sale}`);
      const remove = round % 2 === 1 ? [acme.v2('DELETE', `/sales/quote/${quote}`)] : [];
      const [accepted, backed, changed, converted, removed] = await Promise.all([
        accept,
        back,
        Promise.all(lines),
        convert,
        Promise.all(remove),
      ]);
      noServerError([accepted, backed, ...changed, converted, ...removed]);
      const [q] = await t.db.query<{ key: string; project_id: string | null }>(
        'SELECT s.key, q.project_id FROM quote q JOIN quote_status s ON s.id = q.quote_status_id WHERE q.id = $1',
        [quote],
      );
      const links = await t.db.query<{ project_id: string }>('SELECT project_id FROM sale_project WHERE sale_id = $1', [sale]);
      expect(links.length).toBe(converted.status === 200 ? 1 : 0);
      // a project made from the quote has the services of the lines it was accepted with
      for (const link of links) {
        const services = await t.db.query<{ name: string }>('SELECT name FROM project_service WHERE project_id = $1', [
          link.project_id,
        ]);
        expect(services.map((x) => x.name)).toEqual(['Work']);
      }
      if (!q) {
        // deleted: by the one deletion, before or after its conversion, never during it
        expect(removed.map((r) => r.status)).toEqual([200]);
        continue;
      }
      if (q.key === 'accepted') {
        expect(accepted.status, `round ${round}`).toBe(200);
        // its lines are the ones it was accepted with
        const quoteLines = await t.db.query<{ name: string }>('SELECT name FROM quote_line WHERE quote_id = $1', [quote]);
        expect(quoteLines.map((l) => l.name)).toEqual(['Work']);
      }
      expect(q.project_id ?? null).toBe(links[0]?.project_id ?? null);
    }
  });
});

describe('a quote’s number, drawn as it is created', () => {
  it('quotes created at the same moment, and copied with their sale, get distinct numbers', async () => {
    const sale = await post(acme, '/sales/sales', { subject: 'Race numbers', organization_id: debtor });
    await post(acme, '/sales/quote', { sales_id: sale, quote_subject: 'Numbers 0' });
    for (let round = 0; round < ROUNDS; round++) {
      const creates = Array.from({ length: 4 }, (_, i) =>
        acme.v2('POST', '/sales/quote', { sales_id: sale, quote_subject: `Numbers ${round}.${i}` }),
      );
      const copy = acme.v2('POST', `/sales/sales/${sale}/duplicate`, { copy_latest_quote: true });
      const done = await Promise.all([...creates, copy]);
      noServerError(done);
      expect(ok(done)).toBe(done.length);
    }
    const duplicates = await t.db.query<{ quote_number: string; n: number }>(
      `SELECT q.quote_number, count(*)::int AS n FROM quote q JOIN environment e ON e.id = q.environment_id
        WHERE e.name = 'race-more' GROUP BY 1 HAVING count(*) > 1`,
    );
    expect(duplicates).toEqual([]);
  });
});

describe('a quote copied with its sale while its lines change', () => {
  it('each copy has the lines and the totals of one version of the quote, never a mix', async () => {
    const sale = await post(acme, '/sales/sales', { subject: 'Race copy', organization_id: debtor });
    const quote = await post(acme, '/sales/quote', {
      sales_id: sale,
      quote_subject: 'Copied',
      service_groups: [{ name: 'G', services: [{ name: 'Start', quantity: 1, price: 10 }] }],
    });
    const copies: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const edits = Array.from({ length: 3 }, (_, i) =>
        acme.v2('PUT', `/sales/quote/${quote}`, {
          service_groups: [
            {
              name: 'G',
              services: Array.from({ length: 1 + i + round }, (_, n) => ({ name: `L${n}`, quantity: 1 + i, price: 100 })),
            },
          ],
        }),
      );
      const duplicates = Array.from({ length: 2 }, () =>
        acme.v2('POST', `/sales/sales/${sale}/duplicate`, { copy_latest_quote: true }),
      );
      const [edited, duplicated] = await Promise.all([Promise.all(edits), Promise.all(duplicates)]);
      noServerError([...edited, ...duplicated]);
      for (const res of duplicated) copies.push((res.body as Envelope<{ id: string }>).data.id);
    }
    const rows = await t.db.query<{ id: string; total: string; lines: string | null }>(
      `SELECT q.id, q.total_excl::text AS total, (SELECT sum(l.quantity * l.price)::text FROM quote_line l WHERE l.quote_id = q.id) AS lines
         FROM quote q WHERE q.sale_id = ANY($1)`,
      [copies],
    );
    expect(rows.length).toBe(copies.length);
    for (const row of rows) expect(Number(row.total), row.id).toBe(Number(row.lines ?? 0));
  });
});

describe('a workflow’s task completion', () => {
  const defaultId = () => referenceId(t, 'race-more', 'default_workflow', `r.name = 'New customer onboarding'`);

  type Wf = { id: string; status: string; tasks: { id: string; status: string; position: number }[] };

  it('a task completed several times at once is completed once: every answer shows the one completion', async () => {
    const org = await post(acme, '/crm/organization', { name: 'Race Once BV' });
    const defaultWorkflowId = await defaultId();
    for (let round = 0; round < ROUNDS; round++) {
      const started = await acme.v3('POST', '/workflow.start', { defaultWorkflowId, linkedTo: { organizationId: org } });
      expect(started.status, started.text).toBe(201);
      const task = (started.body as Wf).tasks[0]?.id as string;
      const answers = await Promise.all(
        Array.from({ length: 4 }, () => acme.v3('POST', `/workflow.task.complete/${enc(task)}`, {})),
      );
      noServerError(answers);
      const shown = answers.map(
        (r) => (r.body as { tasks: { id: string; completedAt: string | null }[] }).tasks.find((x) => x.id === task)?.completedAt,
      );
      const [row] = await t.db.query<{ completed_at: Date }>('SELECT completed_at FROM workflow_task WHERE id = $1', [task]);
      expect(new Set(shown), `round ${round}`).toEqual(new Set([row?.completed_at.toISOString()]));
    }
  });

  it('tasks completed several times at once, while they are reopened: the workflow is completed exactly when all its tasks are, in order', async () => {
    const org = await post(acme, '/crm/organization', { name: 'Race Flow BV' });
    const defaultWorkflowId = await defaultId();
    for (let round = 0; round < ROUNDS; round++) {
      const started = await acme.v3('POST', '/workflow.start', { defaultWorkflowId, linkedTo: { organizationId: org } });
      expect(started.status, started.text).toBe(201);
      const wf = started.body as Wf;
      const [first, second, third] = wf.tasks;
      expect((await acme.v3('POST', `/workflow.task.complete/${enc(first?.id as string)}`, {})).status).toBe(200);
      const complete = (task: string) => acme.v3('POST', `/workflow.task.complete/${enc(task)}`, {});
      const writes = [
        complete(second?.id as string),
        complete(second?.id as string),
        complete(third?.id as string),
        complete(third?.id as string),
        acme.v2('PUT', `/workflows/workflow/${wf.id}`, { tasks: [{ id: first?.id, status: 'open' }] }),
        acme.v2('PUT', `/workflows/workflow/${wf.id}`, { tasks: [{ id: second?.id, status: 'completed' }] }),
        acme.v2('PUT', `/workflows/workflow/${wf.id}`, { name: `Renamed ${round}` }),
        // in some rounds the workflow is deleted in the middle of it all
        ...(round % 3 === 2 ? [acme.v2('DELETE', `/workflows/workflow/${wf.id}`)] : []),
      ];
      noServerError(await Promise.all(writes));
      const [row] = await t.db.query<{ status: string; completed_at: Date | null }>(
        'SELECT status, completed_at FROM workflow WHERE id = $1',
        [wf.id],
      );
      const tasks = await t.db.query<{ id: string; status: string; completed_at: Date | null }>(
        'SELECT id, status, completed_at FROM workflow_task WHERE workflow_id = $1 ORDER BY position, id',
        [wf.id],
      );
      if (!row) {
        // deleted: its tasks went with it, none was completed after
        expect(tasks).toEqual([]);
        continue;
      }
      const allDone = tasks.every((x) => x.status === 'completed');
      expect(row?.status, `round ${round}`).toBe(allDone ? 'completed' : 'open');
      // sequential: no task is completed while one before it is open
      const firstOpen = tasks.findIndex((x) => x.status !== 'completed');
      if (firstOpen >= 0) {
        expect(
          tasks.slice(firstOpen).filter((x) => x.status === 'completed'),
          `round ${round}`,
        ).toEqual([]);
      }
      for (const task of tasks) expect(task.completed_at === null).toBe(task.status !== 'completed');
      // the workflow's row and the answers agree
      const read = await acme.v2('GET', `/workflows/workflow/${wf.id}`);
      expect((read.body as Envelope<{ status: string }>).data.status).toBe(row?.status);
    }
  });
});
