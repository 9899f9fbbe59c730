import { project } from '../../projects/project/project.entity.js';
import { assertReferences, inSqlWrite } from '../../shared/entity/index.js';
import { UnavailableError, ValidationError } from '../../shared/errors.js';
import { recordEvent } from '../../shared/events.js';
import { newEntityId } from '../../shared/ids.js';
import type { UserContext } from '../../trpc.js';
import { insertRows } from '../sql-writes.js';
import {
  type CreateInvoiceDraftRequestInput,
  type InvoiceDraftRequest,
  invoiceDraftRequestJob,
} from './invoice-draft-request.schema.js';
import { invoiceDraftRequestOf, loadInvoiceDraftRequest } from './invoice-draft-request.view.js';

/**
 * invoiceDraftRequest.create (201): records the request with one pending entry
 * per project and enqueues its job in the same transaction (through its reader); the worker drafts.
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
  return inSqlWrite(ctx, async ({ sql, now }) => {
    await assertReferences(
      sql,
      input.projectIds.map((id, i) => ({ path: `projectIds.${i}`, target: project, id })),
    );
    const id = newEntityId('invoicedraftrequest');
    // status takes its default (queued), the projects theirs (pending)
    await sql.insert('invoice_draft_request', {
      id,
      invoice_date: input.invoiceDate ? input.invoiceDate.toISOString().slice(0, 10) : null,
      requested_by: ctx.principal.userId,
      updated_at: now,
    });
    await insertRows(
      sql,
      'invoice_draft_request_project',
      ['id', 'request_id', 'project_id', 'position', 'updated_at'],
      input.projectIds.map((projectId, position) => [newEntityId('invoicedraftrequestproject'), id, projectId, position, now]),
    );
    await jobs.send(
      invoiceDraftRequestJob,
      { environmentId: ctx.principal.environmentId, requestId: id },
      { sql, singletonKey: id },
    );
    const row = await loadInvoiceDraftRequest(sql, id);
    if (!row) throw new Error(`invoice draft request ${id} vanished inside its own transaction`);
    const status = invoiceDraftRequestOf(row);
    // the event carries the request as the domain answers it, in JSON (date-times as ISO 8601)
    const data = JSON.parse(JSON.stringify(status)) as Record<string, unknown>;
    await recordEvent(sql, { entityType: 'invoicedraftrequest', entityId: id, change: 'created', data });
    return status;
  });
}
