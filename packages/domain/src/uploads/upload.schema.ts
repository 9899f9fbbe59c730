import { z } from 'zod';

export const startUploadSchema = z.strictObject({
  fileName: z
    .string()
    .trim()
    .min(1, 'file_name must not be empty')
    .max(255)
    .refine((n) => !/[/\\\0]/.test(n), 'file_name may not contain / or \\'),
  // the reference sends it as a string of digits; a number is fine too
  fileSize: z
    .union([z.number(), z.string().regex(/^\d+$/, 'file_size must be a whole number of bytes').transform(Number)])
    .pipe(
      z
        .number()
        .int('file_size must be a whole number of bytes')
        .min(1, 'file_size must be at least 1 byte')
        .max(Number.MAX_SAFE_INTEGER),
    ),
});
export type StartUploadInput = z.infer<typeof startUploadSchema>;

export const putChunkSchema = z.strictObject({
  id: z.string().min(1),
  /** base64 text: a string, or the bytes of the text (so a large chunk need not become a string) */
  chunk: z.union([z.string(), z.instanceof(Uint8Array)]),
  /** optional: the byte offset the client believes this chunk starts at (see README, resuming) */
  pointer: z.number().int().min(0).optional(),
  /** optional: hex SHA-256 of the decoded chunk */
  checksum: z
    .string()
    .regex(/^[0-9a-fA-F]{64}$/, 'checksum is the hex SHA-256 of the decoded chunk')
    .optional(),
});
export type PutChunkInput = z.infer<typeof putChunkSchema>;

/** A started upload. */
export const startedUploadSchema = z.object({ id: z.string() });

/** Where an upload stands: the bytes received of the expected size; the queued file's id once done. */
export const uploadStatusSchema = z.object({
  id: z.string(),
  state: z.string(),
  received: z.number().int(),
  fileSize: z.number().int(),
  uploadQueueId: z.string().nullable(),
});
export type UploadStatus = z.infer<typeof uploadStatusSchema>;
