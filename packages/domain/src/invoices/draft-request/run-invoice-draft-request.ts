import { SCOPED_ENVIRONMENT } from '@bo/db';
import { z } from 'zod';
import { scopedDb } from '../../shared/context.js';
import { newEntityId } from '../../shared/ids.js';
import type { JobContext } from '../../shared/jobs.js';
import { recordEvent } from '../../shared/events.js';
import { num } from '../../shared/numbers.js';
import { invoicePayload } from '../invoice.payload.js';
import { transactionReader } from '@bo/db';
import type { EntityTransaction as Db } from '../../shared/entity/index.js';

export const invoiceDraftJobData = z.object({ environmentId: z.string().min(1), requestId: z.string().min(1) });

interface DraftLine {
  projectServiceId: string;
  description: string;
  quantity: number;
  price: number;
}

const CYCLE_LABEL: Record<string, string> = { month: 'month', quarter: 'quarter', half_year: 'half year', year: 'year' };

/**
 * What a project has to invoice now: fixed prices (or their open installments),
 * one cycle of each subscription and advances, of services in execution that are
 * open and not on a draft yet. Hours-based services wait for registered hours,
 * which this service does not hold yet.
 */
async function draftLines(tx: Db, projectId: string): Promise<DraftLine[]> {
  const services = await tx.projectService.findMany({
    where: {
      projectId,
      status: 'open',
      phase: 'execution',
      kind: { in: ['invoiceable', 'advance'] },
      invoiceLines: { none: { invoice: { status: 'draft' } } },
    },
    include: { installments: { where: { status: 'open' }, orderBy: { position: 'asc' } } },
    orderBy: { createdAt: 'asc' },
  });
  const lines: DraftLine[] = [];
  for (const s of services) {
    const price = num(s.price);
    const quantity = num(s.amount) ?? 1;
    if (s.invoiceMethod === 'time_and_expenses' || price === null) continue;
    if (s.invoiceMethod === 'fixed_price' && s.invoiceInInstallments && s.installments.length) {
      const first = s.installments[0];
      if (!first) continue;
      const amount = num(first.price) ?? ((num(first.percentage) ?? 0) * price * quantity) / 100;
      lines.push({ projectServiceId: s.id, description: `${s.name}: ${first.name}`, quantity: 1, price: amount });
      continue;
    }
    const description =
      s.invoiceMethod === 'subscription' ? `${s.name} (per ${CYCLE_LABEL[s.subscriptionCycle ?? 'month']})` : s.name;
    lines.push({ projectServiceId: s.id, description, quantity, price });
  }
  return lines.filter((l) => l.price * l.quantity !== 0);
}

async function draftForProject(tx: Db, projectId: string, invoiceDate: Date | null, requestId: string) {
  const project = await tx.project.findUnique({ where: { id: projectId } });
  if (!project) return { status: 'skipped', message: 'the project no longer exists', invoiceId: null };
  if (project.phase !== 'execution')
    return { status: 'skipped', message: 'the project is still in acquisition', invoiceId: null };
  if (!project.billable) return { status: 'skipped', message: 'an internal project is not invoiced', invoiceId: null };
  const lines = await draftLines(tx, projectId);
  if (!lines.length) return { status: 'skipped', message: 'nothing to invoice', invoiceId: null };
  const invoiceId = newEntityId('invoice');
  const round = (n: number) => Math.round(n * 100) / 100;
  const invoice = await tx.invoice.create({
    data: {
      id: invoiceId,
      environmentId: SCOPED_ENVIRONMENT,
      status: 'draft',
      organizationId: project.organizationId,
      personId: project.personId,
      projectId,
      draftRequestId: requestId,
      invoiceDate,
      totalAmount: round(lines.reduce((sum, l) => sum + l.quantity * l.price, 0)),
      lines: {
        create: lines.map((l, position) => ({
          id: newEntityId('invoiceline'),
          environmentId: SCOPED_ENVIRONMENT,
          projectServiceId: l.projectServiceId,
          description: l.description,
          quantity: l.quantity,
          price: l.price,
          amount: round(l.quantity * l.price),
          position,
        })),
      },
    },
    include: { lines: { orderBy: { position: 'asc' } } },
  });
  // a drafted invoice is a created entity like any other: webhooks hear of it
  await recordEvent(tx, { entityType: 'invoice', entityId: invoiceId, change: 'created', data: invoicePayload(invoice) });
  return { status: 'drafted', message: null, invoiceId };
}

/**
 * The job behind invoiceDraftRequest.create. Each project is drafted in its own
 * transaction that also marks its progress, under a row lock: a retried or
 * duplicated job never drafts a project twice, and progress is visible as it goes.
 */
export async function runInvoiceDraftRequest(ctx: JobContext, raw: Record<string, unknown>): Promise<void> {
  const data = invoiceDraftJobData.parse(raw);
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
  const items = await db.invoiceDraftRequestProject.findMany({
    where: { requestId: request.id, status: 'pending' },
    orderBy: { position: 'asc' },
  });
  for (const item of items) {
    try {
      await db.$transaction(async (tx) => {
        const locked = await transactionReader(tx, data.environmentId).read<{ status: string }>(
          'SELECT status FROM invoice_draft_request_project WHERE environment_id = $1 AND id = $2 FOR UPDATE',
          [item.id],
        );
        if (locked[0]?.status !== 'pending') return;
        const outcome = await draftForProject(tx, item.projectId, request.invoiceDate, request.id);
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
