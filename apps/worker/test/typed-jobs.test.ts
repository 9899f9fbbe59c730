import { type JobContext, type JobQueue, type JobSendOptions, invoiceDraftRequestJob, jobData, readJobData } from '@bo/domain';
import { expireUploadsJob } from '@bo/domain/uploads/expire-uploads';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { jobHandler, jobHandlers } from '../src/handlers.js';

/**
 * A job is declared once (name, version, payload schema): sending it and handling it are
 * typed by that declaration, so a misspelled name or payload does not compile, and the
 * payload is checked when it is sent and again when the worker receives it.
 */

// Never called: these lines are checked by the type-checker (tsc covers apps/*/test).
function sendsThatDoNotCompile(queue: JobQueue, opts: JobSendOptions) {
  // a job is named by its definition, not by a string
  // @ts-expect-error a name is no definition
  void queue.send('invoice-draft-request', { environmentId: 'e', requestId: 'r' }, opts);
  // @ts-expect-error a misspelled payload key
  void queue.send(invoiceDraftRequestJob, { environmentId: 'e', requestID: 'r' }, opts);
  // @ts-expect-error a missing payload key
  void queue.send(invoiceDraftRequestJob, { environmentId: 'e' }, opts);
  // @ts-expect-error a payload value of the wrong type
  void queue.send(invoiceDraftRequestJob, { environmentId: 'e', requestId: 7 }, opts);
  // the right payload compiles
  void queue.send(invoiceDraftRequestJob, { environmentId: 'e', requestId: 'r' }, opts);
}

function handlersThatDoNotCompile() {
  jobHandler(invoiceDraftRequestJob, {}, async (job) => {
    expectTypeOf(job.data).toEqualTypeOf<{ environmentId: string; requestId: string }>();
    // @ts-expect-error the payload has no such key
    return job.data.requestID;
  });
}
void sendsThatDoNotCompile;
void handlersThatDoNotCompile;

const noContext = {} as JobContext;

describe('typed jobs', () => {
  it("a job's data is its checked payload with the payload's version", () => {
    expect(jobData(invoiceDraftRequestJob, { environmentId: 'env', requestId: 'req' })).toEqual({
      environmentId: 'env',
      requestId: 'req',
      jobVersion: 1,
    });
  });

  it('a payload its definition refuses is never queued', () => {
    const bad = { environmentId: '', requestId: 'req' };
    expect(() => jobData(invoiceDraftRequestJob, bad)).toThrow();
  });

  it("a received job is read against its definition: its version's payload, or version 1 when it names none", () => {
    const data = { environmentId: 'env', requestId: 'req' };
    expect(readJobData(invoiceDraftRequestJob, { ...data, jobVersion: 1 })).toEqual(data);
    // sent before versions were recorded, or by a schedule
    expect(readJobData(invoiceDraftRequestJob, data)).toEqual(data);
    expect(readJobData(expireUploadsJob, {})).toEqual({});
  });

  it('a received job of another version, or whose payload does not match, is refused', () => {
    expect(() => readJobData(invoiceDraftRequestJob, { environmentId: 'env', requestId: 'req', jobVersion: 2 })).toThrow(
      /version 2.*version 1/,
    );
    expect(() => readJobData(invoiceDraftRequestJob, { environmentId: 'env' })).toThrow();
    expect(() => readJobData(invoiceDraftRequestJob, null)).toThrow();
  });

  it("a handler's work starts only with a payload that matches the definition", async () => {
    const seen: unknown[] = [];
    const handler = jobHandler(invoiceDraftRequestJob, { retryLimit: 1 }, async (job) => {
      seen.push(job.data);
    });
    expect(handler).toMatchObject({ name: 'invoice-draft-request', version: 1, retryLimit: 1 });
    await expect(handler.handle({ id: 'j1', data: { environmentId: 'env' } }, noContext)).rejects.toThrow();
    expect(seen).toEqual([]);
    await handler.handle({ id: 'j2', data: { environmentId: 'env', requestId: 'req', jobVersion: 1 } }, noContext);
    expect(seen).toEqual([{ environmentId: 'env', requestId: 'req' }]);
  });

  it("every handler of the worker is made from a definition: its queue's name and version come from it", () => {
    expect(jobHandlers.map((h) => [h.name, h.version])).toEqual([
      ['invoice-draft-request', 1],
      ['uploads.expire', 1],
      ['database.refresh-statistics', 1],
      ['events.prune', 1],
      ['idempotency.expire', 1],
    ]);
  });
});
