import { z } from 'zod';
import { moduleProcedure, router } from '../trpc.js';
import { getUpload } from './get-upload.js';
import { putChunk } from './put-chunk.js';
import { startUpload } from './start-upload.js';
import { putChunkSchema, startedUploadSchema, startUploadSchema, uploadStatusSchema } from './upload.schema.js';

export const uploadsRouter = router({
  chunked: router({
    start: moduleProcedure('documents', 'write')
      .input(startUploadSchema)
      .output(startedUploadSchema)
      .mutation(({ ctx, input }) => startUpload(ctx, input)),
    put: moduleProcedure('documents', 'write')
      .input(putChunkSchema)
      .output(uploadStatusSchema)
      .mutation(({ ctx, input }) => putChunk(ctx, input)),
    get: moduleProcedure('documents', 'read')
      .input(z.object({ id: z.string().min(1) }))
      .output(uploadStatusSchema)
      .query(({ ctx, input }) => getUpload(ctx, input.id)),
  }),
});
