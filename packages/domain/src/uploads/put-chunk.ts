import { createHash } from 'node:crypto';
import { type Models, transactionReader } from '@bo/db';
import { ConflictError, NotFoundError, ValidationError } from '../shared/errors.js';
import { newEntityId } from '../shared/ids.js';
import type { UserContext } from '../trpc.js';
import { requireStorage } from './require-storage.js';
import { DEFAULT_UPLOAD_CONFIG, MAX_CHUNK_ENCODED_LENGTH } from './upload-config.js';
import type { PutChunkInput, UploadStatus } from './upload.schema.js';
import { uploadStatus } from './upload.view.js';
import { decodeBase64Bytes } from './base64.js';

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * Buffers for decoded chunks, reused: a 200 MB upload is ~550 chunks, and a new
 * 375 KB buffer each is memory that only a GC gives back. A few are kept for
 * concurrent PUTs; more are allocated when needed and dropped afterwards.
 */
const DECODED_MAX = (MAX_CHUNK_ENCODED_LENGTH / 4) * 3;
const spare: Buffer[] = [];

function invalidBase64(): ValidationError {
  return new ValidationError([{ path: 'chunk', message: 'the chunk is not valid base64', code: 'invalid_base64' }]);
}

/** `chunk` is base64 text, as a string or as the bytes of its text (the v2 adapter streams bodies that way) */
function decodeChunk(chunk: string | Uint8Array, into: Buffer): Buffer {
  if (chunk.length === 0) throw new ValidationError([{ path: 'chunk', message: 'the chunk is empty', code: 'too_small' }]);
  if (chunk.length > MAX_CHUNK_ENCODED_LENGTH) {
    throw new ValidationError([
      { path: 'chunk', message: `a chunk is at most ${MAX_CHUNK_ENCODED_LENGTH} characters of base64`, code: 'too_big' },
    ]);
  }
  if (typeof chunk !== 'string')
    return (
      decodeBase64Bytes(chunk, into) ??
      (() => {
        throw invalidBase64();
      })()
    );
  if (!BASE64.test(chunk)) throw invalidBase64();
  return Buffer.from(chunk, 'base64');
}

/**
 * PUT /upload/chunked/{id}: appends one chunk. The upload's row is locked for
 * the whole step, so racing PUTs on one upload run one after the other; the
 * bytes go to storage at the offset the database has confirmed, and the new
 * offset is committed after they are written. A crash in between leaves
 * unconfirmed bytes that the next chunk overwrites, never a corrupt file.
 */
export async function putChunk(ctx: UserContext, input: PutChunkInput): Promise<UploadStatus> {
  requireStorage(ctx);
  const scratch = spare.pop() ?? Buffer.allocUnsafeSlow(DECODED_MAX);
  try {
    return await appendChunk(ctx, input, decodeChunk(input.chunk, scratch));
  } finally {
    if (spare.length < 4) spare.push(scratch);
  }
}

async function appendChunk(ctx: UserContext, input: PutChunkInput, bytes: Buffer): Promise<UploadStatus> {
  const storage = requireStorage(ctx);
  const config = ctx.services?.uploads ?? DEFAULT_UPLOAD_CONFIG;
  if (input.checksum && createHash('sha256').update(bytes).digest('hex') !== input.checksum.toLowerCase()) {
    throw new ValidationError([
      { path: 'checksum', message: 'the chunk does not match its checksum', code: 'checksum_mismatch' },
    ]);
  }
  return ctx.db.$transaction(
    async (tx) => {
      if (!(await transactionReader(tx, ctx.principal.environmentId).lockForUpdate('chunked_upload', input.id)))
        throw new NotFoundError('chunked upload', input.id);
      const u = (await tx.chunkedUpload.findFirst({ where: { id: input.id } })) as Models.ChunkedUploadModel;
      const received = Number(u.received);
      const size = Number(u.fileSize);
      // a repeated chunk whose answer was lost: already applied, answer the status unchanged;
      // but only when it is the same bytes: other bytes at a confirmed pointer are a conflict
      // (two writers, or a client that lost track), never silently dropped with a 200
      if (input.pointer !== undefined && input.pointer + bytes.length === received && input.pointer < received) {
        const stored = await storage.readAt(u.storageKey, input.pointer, bytes.length);
        if (stored.equals(bytes)) return uploadStatus(u);
        throw new ConflictError(
          `bytes ${input.pointer} to ${received} are confirmed with other content; the upload is at byte ${received}`,
        );
      }
      if (u.state === 'done') throw new ConflictError('the upload is done; it accepts no further chunk');
      if (input.pointer !== undefined && input.pointer !== received) {
        throw new ConflictError(`the upload is at byte ${received}; send the chunk that starts there`);
      }
      if (received + bytes.length > size) {
        throw new ValidationError([
          {
            path: 'chunk',
            message: `the chunk would pass file_size: ${received} + ${bytes.length} bytes > ${size}`,
            code: 'too_big',
          },
        ]);
      }
      await storage.writeAt(u.storageKey, received, bytes);
      const now = ctx.clock.now();
      const total = received + bytes.length;
      const done = total === size;
      let contentType: string | null = null;
      if (done) {
        const head = await storage.readHead(u.storageKey, 5);
        contentType = head.toString('latin1') === '%PDF-' ? 'application/pdf' : 'application/octet-stream';
      }
      const updated = await tx.chunkedUpload.update({
        where: { id: u.id },
        data: {
          received: BigInt(total),
          state: done ? 'done' : 'in_progress',
          uploadQueueId: done ? newEntityId('uploadqueue') : undefined,
          contentType: contentType ?? undefined,
          expiresAt: new Date(now.getTime() + config.expirySeconds * 1000),
          updatedAt: now,
        },
      });
      return uploadStatus(updated);
    },
    { timeout: 60_000, maxWait: 60_000 },
  );
}
