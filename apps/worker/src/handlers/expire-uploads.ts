import { expireUploads } from '@bo/domain/uploads/expire-uploads';
import type { JobHandler } from '../handlers.js';

/** Every minute: unfinished (or finished, never used) uploads past their expiry go, with their bytes. */
export const expireUploadsHandler: JobHandler = {
  name: 'uploads.expire',
  schedule: '* * * * *',
  retryLimit: 2,
  async handle(_job, ctx) {
    await expireUploads(ctx);
  },
};
