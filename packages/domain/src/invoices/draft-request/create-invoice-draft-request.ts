import { SCOPED_ENVIRONMENT, transactionReader } from '@bo/db';
import { project } from '../../projects/project/project.entity.js';
import { assertReferences } from '../../shared/entity/index.js';
import { UnavailableError, ValidationError } from '../../shared/errors.js';
import { recordEvent } from '../../shared/events.js';
import { newEntityId } from '../../shared/ids.js';
import type { UserContext } from '../../trpc.js';
import {
  type CreateInvoiceDraftRequestInput,
  type InvoiceDraftRequest,
  invoiceDraftRequestJob,
} from './invoice-draft-request.schema.js';
import { invoiceDraftRequestOf, loadInvoiceDraftRequest } from './invoice-draft-request.view.js';

/**
 * invoiceDraftRequest.create (201): records the request with one pending entry
 * per project and enqueues its job in the same transaction; the worker drafts.
 */
export async function createInvoiceDraftRequest(
  ctx: UserContext,
  input: CreateInvoiceDraftRequestInput,
): Promise<InvoiceDraftRequest> {
  const jobs = ctx.services?.jobs;
  if (!jobs) throw new UnavailableError('background jobs are not available in this process');
  const duplicates = input.projectIds
    .map((id, i) => ({ id, i }))
    .filter(({ id, i }) => input.projectIds.indexOf(id) !== i)
    .map(({ i }) => ({ path: `projectIds.${i}`, message: 'This project is chosen twice.', code: 'duplicate' }));
  if (duplicates.length) throw new ValidationError(duplicates);
  return ctx.db.$transaction(async (tx) => {
    const sql = transactionReader(tx, ctx.principal.environmentId);
    await assertReferences(
      sql,
      input.projectIds.map((id, i) => ({ path: `projectIds.${i}`, target: project, id })),
    );
    const id = newEntityId('invoicedraftrequest');
    await tx.invoiceDraftRequest.create({
      data: {
        id,
        environmentId: SCOPED_ENVIRONMENT,
        invoiceDate: input.invoiceDate ?? null,
        requestedBy: ctx.principal.userId,
        projects: {
          create: input.projectIds.map((projectId, position) => ({
            id: newEntityId('invoicedraftrequestproject'),
            environmentId: SCOPED_ENVIRONMENT,
            projectId,
            position,
          })),
        },
      },
    });
    await jobs.send(
      invoiceDraftRequestJob,
      { environmentId: ctx.principal.environmentId, requestId: id },
      { tx, singletonKey: id },
    );
    const row = await loadInvoiceDraftRequest(tx, id);
    if (!row) throw new Error(`invoice draft request ${id} vanished inside its own transaction`);
    const status = invoiceDraftRequestOf(row);
    // the event carries the request as the domain answers it, in JSON (date-times as ISO 8601)
    const data = JSON.parse(JSON.stringify(status)) as Record<string, unknown>;
    await recordEvent(sql, { entityType: 'invoicedraftrequest', entityId: id, change: 'created', data });
    return status;
  });
}
