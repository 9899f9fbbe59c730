import type { z } from 'zod';
import { BusinessRuleError } from '../../../shared/errors.js';
import type { UserContext } from '../../../trpc.js';
import type { AdvanceServiceOutput, CreateAdvanceProjectService } from '../project-service.v3.schema.js';
import { advanceServiceV3 } from '../project-service.views.js';
import { saveProjectService, V3_FIELDS } from '../save-project-service.js';
import { loadAdvanceConfiguration } from './advance-service-configuration.js';
import { serviceCommand } from './service-command.js';

/**
 * projectService.advance.create (201): an advance (prepayment) invoiced as one
 * fixed price, set up from the environment's advance configuration.
 */
export async function createAdvanceService(
  ctx: UserContext,
  input: z.output<typeof CreateAdvanceProjectService>,
): Promise<AdvanceServiceOutput> {
  const row = await serviceCommand(ctx, 'created', async (w) => {
    const config = await loadAdvanceConfiguration(w.tx);
    if (!config)
      throw new BusinessRuleError('this environment has no advance service configuration; advance services cannot be made');
    return saveProjectService(
      w,
      { kind: 'advance' },
      {
        projectId: input.projectId,
        name: input.name ?? config.name,
        explanation: input.explanation,
        price: input.price,
        amount: 1,
        expectedInvoiceDate: input.expectedInvoiceDate,
        invoiceMethod: 'fixed_price',
        defaultServiceId: config.defaultServiceId,
        vatClassId: config.vatClassId,
        revenueGroupId: config.revenueGroupId,
        trackHours: false,
        trackCost: false,
      },
      V3_FIELDS,
    );
  });
  return advanceServiceV3(row);
}
