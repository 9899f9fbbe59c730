import { expireUploads, expireUploadsJob } from '@bo/domain/uploads/expire-uploads';
import { jobHandler } from '../handlers.js';

/** Every minute: unfinished (or finished, never used) uploads past their expiry go, with their bytes. */
export const expireUploadsHandler = jobHandler(expireUploadsJob, { schedule: '* * * * *', retryLimit: 2 }, (_job, ctx) =>
  expireUploads(ctx),
);
