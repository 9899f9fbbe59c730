import { z } from 'zod';
import type { TenantSql } from '@bo/db';
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

type StoredConfiguration = Omit<AdvanceServiceConfiguration, 'invoiceMethod'>;

/** The environment's one configuration (null when it has none), inside a write or outside one. */
export async function loadAdvanceConfiguration(sql: TenantSql): Promise<StoredConfiguration | null> {
  const [config] = await sql.read<StoredConfiguration>(
    `SELECT name, default_service_id AS "defaultServiceId", vat_class_id AS "vatClassId", revenue_group_id AS "revenueGroupId"
       FROM advance_service_configuration WHERE environment_id = $1 LIMIT 1`,
  );
  return config ?? null;
}

/** projectService.advance.configuration: the environment's settings for advance services; 404 when it has none. */
export async function getAdvanceServiceConfiguration(ctx: UserContext): Promise<AdvanceServiceConfiguration> {
  const config = await loadAdvanceConfiguration(ctx.sql);
  if (!config) throw new NotFoundError('advance service configuration');
  return {
    name: config.name,
    defaultServiceId: config.defaultServiceId,
    invoiceMethod: 'fixed_price',
    vatClassId: config.vatClassId,
    revenueGroupId: config.revenueGroupId,
  };
}
