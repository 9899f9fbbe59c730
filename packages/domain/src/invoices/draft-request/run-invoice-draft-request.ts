import { inTransaction, type PrismaClient, type TenantReader, tenantSql } from '@bo/db';
import { scopedDb } from '../../shared/context.js';
import { entityEventData } from '../../shared/entity/index.js';
import { recordEvent } from '../../shared/events.js';
import { newEntityId } from '../../shared/ids.js';
import type { JobContext } from '../../shared/jobs.js';
import { invoice } from '../invoice/invoice.entity.js';
import { defaultPaymentTerm, dueDateOf, isoDay, type StoredLineInput, writeLines } from '../invoice/invoice.write.js';
import type { InvoiceDraftJobData } from './invoice-draft-request.schema.js';
import { DRAFT_SOURCES } from './sources/index.js';

type Outcome = { status: 'drafted' | 'skipped'; message: string | null; invoiceId: string | null };

/** What the draft reads of its project. */
interface DraftedProject {
  name: string;
  phase: string;
  billable: boolean;
  organizationId: string | null;
  personId: string | null;
  myOrganizationProfileId: string | null;
  invoiceReference: string | null;
}

/**
 * Drafts one project's invoice from every source (./sources). The project's row is
 * locked first (and read by the same statement): two workers drafting the same project
 * (two requests, or a retried job) take turns, and the second finds the items the first claimed.
 */
export async function draftForProject(
  sql: TenantReader,
  now: Date,
  projectId: string,
  invoiceDate: Date,
  requestId: string | null,
): Promise<Outcome> {
  const [project] = await sql.read<DraftedProject>(
    `SELECT name, phase, billable, organization_id AS "organizationId", person_id AS "personId",
            my_organization_profile_id AS "myOrganizationProfileId", invoice_reference AS "invoiceReference"
       FROM project WHERE environment_id = $1 AND id = $2 FOR UPDATE`,
    [projectId],
  );
  if (!project) return { status: 'skipped', message: 'the project no longer exists', invoiceId: null };
  if (project.phase !== 'execution')
    return { status: 'skipped', message: 'the project is still in acquisition', invoiceId: null };
  if (!project.billable) return { status: 'skipped', message: 'an internal project is not invoiced', invoiceId: null };
  const term = await defaultPaymentTerm(sql);
  const invoiceId = newEntityId('invoice');
  const due = dueDateOf(invoiceDate, term?.days ?? null);
  await sql.insert('invoice', {
    id: invoiceId,
    status: 'draft',
    organization_id: project.organizationId,
    person_id: project.personId,
    project_id: projectId,
    my_organization_profile_id: project.myOrganizationProfileId,
    draft_request_id: requestId,
    invoice_date: isoDay(invoiceDate),
    payment_term_id: term?.id ?? null,
    due_date: due ? isoDay(due) : null,
    reference: project.invoiceReference,
    subject: project.name,
    total_amount: 0,
    updated_at: now,
  });
  const lines: StoredLineInput[] = [];
  for (const source of DRAFT_SOURCES) {
    lines.push(...(await source.collect({ sql, projectId, invoiceDate, invoiceId })));
  }
  if (!lines.length) {
    await sql.deleteById('invoice', invoiceId);
    return { status: 'skipped', message: 'nothing to invoice', invoiceId: null };
  }
  await writeLines({ sql, now }, invoiceId, lines);
  // a drafted invoice is a created entity like any other: webhooks hear of it
  const [row] = await invoice.loader.byIds(sql, [invoiceId]);
  await recordEvent(sql, {
    entityType: 'invoice',
    entityId: invoiceId,
    change: 'created',
    data: entityEventData(invoice, row, invoiceId),
  });
  return { status: 'drafted', message: null, invoiceId };
}

/**
 * One transaction of the environment through its tenant reader only: one of our own, or
 * Prisma's where the database offers none of our own (the pool is not known).
 */
function inDraftTransaction<T>(prisma: PrismaClient, environmentId: string, body: (sql: TenantReader) => Promise<T>) {
  const reader = tenantSql(prisma, environmentId);
  if (reader.transaction) return reader.transaction(body);
  return inTransaction(
    (run) => scopedDb(prisma, environmentId).$transaction(run),
    environmentId,
    (_prisma, sql: TenantReader) => body(sql),
  );
}

/** What the job reads of its request (the date as YYYY-MM-DD). */
interface RequestRow {
  id: string;
  status: string;
  invoiceDate: string | null;
  startedAt: Date | null;
}

/**
 * The job behind invoiceDraftRequest.create. Each project is drafted in its own
 * transaction that also marks its progress, under a row lock: a retried or
 * duplicated job never drafts a project twice, and progress is visible as it goes.
 * The request's own progress is written a statement at a time, outside those transactions.
 */
export async function runInvoiceDraftRequest(ctx: JobContext, data: InvoiceDraftJobData): Promise<void> {
  const sql = tenantSql(ctx.prisma, data.environmentId);
  const [request] = await sql.read<RequestRow>(
    `SELECT id, status, to_char(invoice_date, 'YYYY-MM-DD') AS "invoiceDate", started_at AS "startedAt"
       FROM invoice_draft_request WHERE environment_id = $1 AND id = $2`,
    [data.requestId],
  );
  if (!request) {
    ctx.log.warn({ requestId: data.requestId }, 'invoice draft request not found; nothing to do');
    return;
  }
  if (request.status === 'done') return;
  const started = ctx.clock.now();
  await sql.write(
    `UPDATE invoice_draft_request SET status = 'running', started_at = $3, updated_at = $4 WHERE environment_id = $1 AND id = $2`,
    [request.id, request.startedAt ?? started, started],
  );
  const now = ctx.clock.now();
  const invoiceDate = request.invoiceDate
    ? new Date(`${request.invoiceDate}T00:00:00.000Z`)
    : new Date(`${now.toISOString().slice(0, 10)}T00:00:00.000Z`);
  const items = await sql.read<{ id: string; projectId: string }>(
    `SELECT id, project_id AS "projectId" FROM invoice_draft_request_project
      WHERE environment_id = $1 AND request_id = $2 AND status = 'pending' ORDER BY position ASC`,
    [request.id],
  );
  for (const item of items) {
    try {
      await inDraftTransaction(ctx.prisma, data.environmentId, async (reader) => {
        const locked = await reader.read<{ status: string }>(
          'SELECT status FROM invoice_draft_request_project WHERE environment_id = $1 AND id = $2 FOR UPDATE',
          [item.id],
        );
        if (locked[0]?.status !== 'pending') return;
        const at = ctx.clock.now();
        const outcome = await draftForProject(reader, at, item.projectId, invoiceDate, request.id);
        await reader.update('invoice_draft_request_project', item.id, {
          status: outcome.status,
          message: outcome.message,
          invoice_id: outcome.invoiceId,
          updated_at: at,
        });
      });
    } catch (err) {
      ctx.log.error({ err, requestId: request.id, projectId: item.projectId }, 'drafting an invoice failed');
      await sql.write(
        `UPDATE invoice_draft_request_project SET status = 'failed', message = 'drafting failed; see the worker log', updated_at = $3
          WHERE environment_id = $1 AND id = $2`,
        [item.id, ctx.clock.now()],
      );
    }
  }
  const finished = ctx.clock.now();
  await sql.write(
    `UPDATE invoice_draft_request SET status = 'done', finished_at = $3, updated_at = $3 WHERE environment_id = $1 AND id = $2`,
    [request.id, finished],
  );
}
