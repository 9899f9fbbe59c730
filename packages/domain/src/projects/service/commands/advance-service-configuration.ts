import { z } from 'zod';
import type { EntityTransaction } from '../../../shared/entity/index.js';
import { NotFoundError } from '../../../shared/errors.js';
import type { UserContext } from '../../../trpc.js';

/** The settings advance services are made with. */
export const advanceServiceConfigurationSchema = z.object({
  /** the name an advance service gets when the request names none */
  name: z.string(),
  defaultServiceId: z.string().nullable(),
  invoiceMethod: z.literal('fixed_price'),
  vatClassId: z.string().nullable(),
  revenueGroupId: z.string().nullable(),
});
export type AdvanceServiceConfiguration = z.infer<typeof advanceServiceConfigurationSchema>;

export function loadAdvanceConfiguration(tx: Pick<EntityTransaction, 'advanceServiceConfiguration'>) {
  return tx.advanceServiceConfiguration.findFirst();
}

/** projectService.advance.configuration: the environment's settings for advance services; 404 when it has none. */
export async function getAdvanceServiceConfiguration(ctx: UserContext): Promise<AdvanceServiceConfiguration> {
  const config = await loadAdvanceConfiguration(ctx.db);
  if (!config) throw new NotFoundError('advance service configuration');
  return {
    name: config.name,
    defaultServiceId: config.defaultServiceId,
    invoiceMethod: 'fixed_price',
    vatClassId: config.vatClassId,
    revenueGroupId: config.revenueGroupId,
  };
}
