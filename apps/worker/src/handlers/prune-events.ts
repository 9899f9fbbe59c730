import { DEFAULT_EVENT_RETENTION_DAYS, pruneEvents, pruneEventsJob } from '@bo/domain/changes/prune-events';
import { jobHandler } from '../handlers.js';

/** EVENT_RETENTION_DAYS (30): how long the change feed reaches back */
export function eventRetentionDays(env: NodeJS.ProcessEnv = process.env): number {
  const days = Number(env.EVENT_RETENTION_DAYS ?? DEFAULT_EVENT_RETENTION_DAYS);
  return Number.isInteger(days) && days >= 1 ? days : DEFAULT_EVENT_RETENTION_DAYS;
}

/** Every hour: events older than the retention leave the outbox (and the change feed). */
export const pruneEventsHandler = jobHandler(pruneEventsJob, { schedule: '17 * * * *', retryLimit: 2 }, (_job, ctx) =>
  pruneEvents(ctx.prisma, eventRetentionDays()),
);
