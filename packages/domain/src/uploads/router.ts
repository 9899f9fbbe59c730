import { z } from 'zod';
import { moduleProcedure, router } from '../trpc.js';
import { getUpload } from './get-upload.js';
import { putChunk } from './put-chunk.js';
import { startUpload } from './start-upload.js';
import { putChunkSchema, startUploadSchema } from './upload.schema.js';

export const uploadsRouter = router({
  chunked: router({
    start: moduleProcedure('documents', 'write')
      .input(startUploadSchema)
      .mutation(({ ctx, input }) => startUpload(ctx, input)),
    put: moduleProcedure('documents', 'write')
      .input(putChunkSchema)
      .mutation(({ ctx, input }) => putChunk(ctx, input)),
    get: moduleProcedure('documents', 'read')
      .input(z.object({ id: z.string().min(1) }))
      .query(({ ctx, input }) => getUpload(ctx, input.id)),
  }),
});
