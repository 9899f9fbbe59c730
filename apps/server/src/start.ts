import { v2Mount } from '@bo/api-v2';
import { v3Mount } from '@bo/api-v3';
import type { Clock } from '@bo/domain';
import { type HttpMount, type HttpService, type ServiceConfig, startHttpService } from '@bo/runtime';
import { type RunningWorker, startWorker } from '@bo/worker';
import { trpcMount } from './trpc.js';
import { settingsMount } from './settings/mount.js';

/** Everything this process serves: both wire versions and the internal tRPC endpoint. */
export const serverMounts: HttpMount[] = [v2Mount, v3Mount, trpcMount, settingsMount];

export type RunningService = HttpService<RunningWorker>;

/**
 * The whole service in one process (the default start): opens the database
 * (migrating it), seeds the demo on an empty one, serves v2, v3 and /trpc over
 * HTTPS, and works the background jobs unless RUN_WORKER=false. The API always
 * enqueues through pg-boss.
 */
export function startService(config: ServiceConfig, extra: { clock?: Clock } = {}): Promise<RunningService> {
  return startHttpService(config, {
    mounts: serverMounts,
    jobs: startWorker,
    work: config.runWorker,
    seedDemo: config.seedDemo,
    clock: extra.clock,
  });
}
