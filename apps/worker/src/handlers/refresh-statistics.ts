import { refreshStatistics } from '@bo/domain/database/refresh-statistics';
import type { JobHandler } from '../handlers.js';

/** Every minute: tables changed enough since their last ANALYZE are analyzed (no autovacuum on the embedded database). */
export const refreshStatisticsHandler: JobHandler = {
  name: 'database.refresh-statistics',
  schedule: '* * * * *',
  retryLimit: 1,
  async handle(_job, ctx) {
    await refreshStatistics(ctx);
  },
};
