import type { EntityCreate } from '../../shared/entity/index.js';
import { BusinessRuleError } from '../../shared/errors.js';
import { loadAdvanceConfiguration } from './commands/advance-service-configuration.js';
import type { CreateAdvanceServiceInput } from './project-service.schema.js';
import { saveProjectService } from './save-project-service.js';

/** An advance (prepayment) invoiced as one fixed price, set up from the environment's advance configuration. */
export const createAdvanceService: EntityCreate<CreateAdvanceServiceInput> = {
  async run(w, input) {
    const config = await loadAdvanceConfiguration(w.sql);
    if (!config) {
      throw new BusinessRuleError('this environment has no advance service configuration; advance services cannot be made');
    }
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
    );
  },
};
