import { NotFoundError } from '../../shared/errors.js';
import type { UserContext } from '../../trpc.js';
import type { InvoiceDraftRequest } from './invoice-draft-request.schema.js';
import { invoiceDraftRequestOf, loadInvoiceDraftRequest } from './invoice-draft-request.view.js';

/** invoiceDraftRequest.get/{id}: the request's status and its project progress counts, as the job runs. */
export async function getInvoiceDraftRequest(ctx: UserContext, id: string): Promise<InvoiceDraftRequest> {
  const row = await loadInvoiceDraftRequest(ctx.sql, id);
  if (!row) throw new NotFoundError('invoicedraftrequest', id);
  return invoiceDraftRequestOf(row);
}
