import type { z } from 'zod';
import type { UserContext } from '../../../trpc.js';
import type { CreateProjectService, InvoiceableServiceOutput } from '../project-service.v3.schema.js';
import { invoiceableServiceV3 } from '../project-service.views.js';
import { saveProjectService, V3_FIELDS } from '../save-project-service.js';
import { invoiceableFromV3, serviceCommand } from './service-command.js';

/** projectService.create: stores an invoiceable service (201). */
export async function createProjectService(
  ctx: UserContext,
  input: z.output<typeof CreateProjectService>,
): Promise<InvoiceableServiceOutput> {
  const row = await serviceCommand(ctx, 'created', (w) =>
    saveProjectService(w, { kind: 'invoiceable' }, invoiceableFromV3(input), V3_FIELDS),
  );
  return invoiceableServiceV3(row);
}
