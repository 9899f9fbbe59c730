import type { z } from 'zod';
import { NotFoundError } from '../../../shared/errors.js';
import type { Db } from '../../../shared/resources/definition.js';
import type { UserContext } from '../../../trpc.js';
import type { AdvanceServiceConfiguration } from '../project-service.v3.schema.js';

export async function loadAdvanceConfiguration(db: Db) {
  return db.advanceServiceConfiguration.findFirst();
}

/** projectService.advance.configuration: the environment's settings for advance services; 404 when it has none. */
export async function getAdvanceServiceConfiguration(ctx: UserContext): Promise<z.infer<typeof AdvanceServiceConfiguration>> {
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
