import { z } from 'zod';
import { moduleProcedure, router, userProcedure } from '../trpc.js';
import { renderPoolOf, renderTurnOf } from '../rendering/bounded.js';
import { requireStorage } from '../uploads/require-storage.js';
import { DEFAULT_MAX_IMAGE_PIXELS } from '../uploads/upload-config.js';
import { uploadStatusSchema } from '../uploads/upload.schema.js';
import { ASSET_KINDS, assetSchema, openAsset, putAsset } from './assets.js';
import { openExpenseAttachment, openStoredDocument, openUploadFile, readableDocument } from './document-files.js';
import { fileKind } from './file-kind.js';
import { storedFileSchema } from './stored-file.js';
import { incomingFileSchema, streamUpload } from './stream-upload.js';
import { iconFile, thumbnail, thumbnailSize } from './thumbnails.js';

const kindInput = z.object({ kind: z.enum(ASSET_KINDS), ownerId: z.unknown().optional() });

/** The v2 storage endpoints' domain: document bytes, thumbnails, icons, company and user files, streamed uploads. */
export const storageRouter = router({
  // rights are checked inside: documents, or invoices for an invoice's document
  file: userProcedure
    .input(z.object({ id: z.unknown() }))
    .output(storedFileSchema)
    .query(({ ctx, input }) => openStoredDocument(ctx, input.id)),
  uploadFile: userProcedure
    .input(z.object({ uploadQueueId: z.unknown() }))
    .output(storedFileSchema)
    .query(({ ctx, input }) => openUploadFile(ctx, input.uploadQueueId)),
  thumbnail: userProcedure
    .input(z.object({ id: z.unknown(), size: z.unknown().optional() }))
    .output(storedFileSchema)
    .query(async ({ ctx, input }) => {
      const size = thumbnailSize(input.size);
      const doc = await readableDocument(ctx, input.id);
      const maxPixels = ctx.services?.uploads?.maxImagePixels ?? DEFAULT_MAX_IMAGE_PIXELS;
      return thumbnail(requireStorage(ctx), doc, size, { maxPixels, pool: renderPoolOf(ctx), environment: renderTurnOf(ctx) });
    }),
  icon: userProcedure
    .input(
      z.object({
        id: z.unknown().optional(),
        fileName: z.string().max(255).nullable().optional(),
        extension: z.string().max(32).nullable().optional(),
        contentType: z.string().max(255).nullable().optional(),
      }),
    )
    .output(storedFileSchema)
    .query(async ({ ctx, input }) => {
      if (input.id !== undefined && input.id !== null && input.id !== '') {
        const doc = await readableDocument(ctx, input.id);
        return iconFile(fileKind({ contentType: doc.contentType, fileName: doc.fileName }));
      }
      return iconFile(fileKind(input));
    }),
  costsAttachment: userProcedure
    .input(z.object({ expenseId: z.unknown().optional(), id: z.unknown().optional() }))
    .output(storedFileSchema)
    .query(({ ctx, input }) => openExpenseAttachment(ctx, input)),
  asset: router({
    get: userProcedure
      .input(kindInput)
      .output(storedFileSchema)
      .query(({ ctx, input }) => openAsset(ctx, input)),
    put: userProcedure
      .input(kindInput.extend({ file: incomingFileSchema }))
      .output(assetSchema)
      .mutation(({ ctx, input }) => putAsset(ctx, input)),
  }),
  uploadStream: moduleProcedure('documents', 'write')
    .input(incomingFileSchema)
    .output(uploadStatusSchema)
    .mutation(({ ctx, input }) => streamUpload(ctx, input)),
});
