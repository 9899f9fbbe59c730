import type { z } from 'zod';
import type { UserContext } from '../../../trpc.js';
import type { EditProjectService, InvoiceableServiceOutput } from '../project-service.v3.schema.js';
import { invoiceableServiceV3 } from '../project-service.views.js';
import { saveProjectService, serviceForEdit, V3_FIELDS } from '../save-project-service.js';
import { invoiceableFromV3, serviceCommand } from './service-command.js';

/**
 * projectService.edit (200): 404 for a missing service; 422 when a referenced
 * hour or cost type is missing, when the service may no longer be edited
 * (invoiced, or its project closed) or when the edit would leave it invalid.
 */
export async function editProjectService(
  ctx: UserContext,
  input: z.output<typeof EditProjectService>,
): Promise<InvoiceableServiceOutput> {
  const { id, ...fields } = input;
  const row = await serviceCommand(ctx, 'updated', async (w) => {
    const existing = await serviceForEdit(w.tx, id, 'invoiceable');
    return saveProjectService(w, { kind: 'invoiceable', existing }, invoiceableFromV3(fields, existing), V3_FIELDS);
  });
  return invoiceableServiceV3(row);
}
