import { SCOPED_ENVIRONMENT, type TenantReader, transactionReader } from '@bo/db';
import { scopedDb } from '../../shared/context.js';
import { entityEventData, type EntityTransaction as Db } from '../../shared/entity/index.js';
import { recordEvent } from '../../shared/events.js';
import { newEntityId } from '../../shared/ids.js';
import type { JobContext } from '../../shared/jobs.js';
import { invoice } from '../invoice/invoice.entity.js';
import { defaultPaymentTerm, dueDateOf, type StoredLineInput, writeLines } from '../invoice/invoice.write.js';
import type { InvoiceDraftJobData } from './invoice-draft-request.schema.js';
import { DRAFT_SOURCES } from './sources/index.js';

type Outcome = { status: 'drafted' | 'skipped'; message: string | null; invoiceId: string | null };

/**
 * Drafts one project's invoice from every source (./sources). The project's row is
 * locked first: two workers drafting the same project (two requests, or a retried
 * job) take turns, and the second finds the items the first claimed.
 */
export async function draftForProject(
  tx: Db,
  sql: TenantReader,
  projectId: string,
  invoiceDate: Date,
  requestId: string | null,
): Promise<Outcome> {
  if (!(await sql.lockForUpdate('project', projectId))) {
    return { status: 'skipped', message: 'the project no longer exists', invoiceId: null };
  }
  const project = await tx.project.findFirstOrThrow({ where: { id: projectId } });
  if (project.phase !== 'execution')
    return { status: 'skipped', message: 'the project is still in acquisition', invoiceId: null };
  if (!project.billable) return { status: 'skipped', message: 'an internal project is not invoiced', invoiceId: null };
  const term = await defaultPaymentTerm(tx);
  const invoiceId = newEntityId('invoice');
  await tx.invoice.create({
    data: {
      id: invoiceId,
      environmentId: SCOPED_ENVIRONMENT,
      status: 'draft',
      organizationId: project.organizationId,
      personId: project.personId,
      projectId,
      myOrganizationProfileId: project.myOrganizationProfileId,
      draftRequestId: requestId,
      invoiceDate,
      paymentTermId: term?.id ?? null,
      dueDate: dueDateOf(invoiceDate, term?.days ?? null),
      reference: project.invoiceReference,
      subject: project.name,
      totalAmount: 0,
    },
  });
  const lines: StoredLineInput[] = [];
  for (const source of DRAFT_SOURCES) {
    lines.push(...(await source.collect({ tx, sql, projectId, invoiceDate, invoiceId })));
  }
  if (!lines.length) {
    await sql.deleteById('invoice', invoiceId);
    return { status: 'skipped', message: 'nothing to invoice', invoiceId: null };
  }
  await writeLines(tx, invoiceId, lines);
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
 * The job behind invoiceDraftRequest.create. Each project is drafted in its own
 * transaction that also marks its progress, under a row lock: a retried or
 * duplicated job never drafts a project twice, and progress is visible as it goes.
 */
export async function runInvoiceDraftRequest(ctx: JobContext, data: InvoiceDraftJobData): Promise<void> {
  const db = scopedDb(ctx.prisma, data.environmentId);
  const request = await db.invoiceDraftRequest.findFirst({ where: { id: data.requestId } });
  if (!request) {
    ctx.log.warn({ requestId: data.requestId }, 'invoice draft request not found; nothing to do');
    return;
  }
  if (request.status === 'done') return;
  await db.invoiceDraftRequest.update({
    where: { id: request.id },
    data: { status: 'running', startedAt: request.startedAt ?? ctx.clock.now() },
  });
  const now = ctx.clock.now();
  const invoiceDate = request.invoiceDate ?? new Date(`${now.toISOString().slice(0, 10)}T00:00:00.000Z`);
  const items = await db.invoiceDraftRequestProject.findMany({
    where: { requestId: request.id, status: 'pending' },
    orderBy: { position: 'asc' },
  });
  for (const item of items) {
    try {
      await db.$transaction(async (tx) => {
        const sql = transactionReader(tx, data.environmentId);
        const locked = await sql.read<{ status: string }>(
          'SELECT status FROM invoice_draft_request_project WHERE environment_id = $1 AND id = $2 FOR UPDATE',
          [item.id],
        );
        if (locked[0]?.status !== 'pending') return;
        const outcome = await draftForProject(tx as unknown as Db, sql, item.projectId, invoiceDate, request.id);
        await tx.invoiceDraftRequestProject.update({ where: { id: item.id }, data: outcome });
      });
    } catch (err) {
      ctx.log.error({ err, requestId: request.id, projectId: item.projectId }, 'drafting an invoice failed');
      await db.invoiceDraftRequestProject.update({
        where: { id: item.id },
        data: { status: 'failed', message: 'drafting failed; see the worker log' },
      });
    }
  }
  await db.invoiceDraftRequest.update({ where: { id: request.id }, data: { status: 'done', finishedAt: ctx.clock.now() } });
}
