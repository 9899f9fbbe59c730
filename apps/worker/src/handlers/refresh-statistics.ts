import { refreshStatistics, refreshStatisticsJob } from '@bo/domain/database/refresh-statistics';
import { jobHandler } from '../handlers.js';

/** Every minute: tables changed enough since their last ANALYZE are analyzed (no autovacuum on the embedded database). */
export const refreshStatisticsHandler = jobHandler(refreshStatisticsJob, { schedule: '* * * * *', retryLimit: 1 }, (_job, ctx) =>
  refreshStatistics(ctx),
);
