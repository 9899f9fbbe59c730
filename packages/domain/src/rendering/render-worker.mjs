// A render process (started by render-pool.ts): takes one job at a time over its
// IPC channel, runs it (render-jobs.mjs) and answers the result with its memory
// in use. Its memory limits are set where it is started; its parent ends it past
// the time limit. It leaves when its parent goes.
import { runJob, warm } from './render-jobs.mjs';

process.on('message', async (message) => {
  const { id, job } = /** @type {{ id: number, job: { kind: string } }} */ (message);
  const result = await runJob(job);
  process.send?.({ id, result, rss: process.memoryUsage().rss });
});
process.on('disconnect', () => process.exit(0));
process.send?.({ ready: true });
// the renderers load while the first job is on its way (about half a second)
warm();
