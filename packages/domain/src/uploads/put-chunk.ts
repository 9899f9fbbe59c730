import { createHash, randomBytes } from 'node:crypto';
import { ConflictError, NotFoundError, ValidationError } from '../shared/errors.js';
import { newEntityId } from '../shared/ids.js';
import type { UserContext } from '../trpc.js';
import { requireStorage } from './require-storage.js';
import { DEFAULT_UPLOAD_CONFIG, MAX_CHUNK_ENCODED_LENGTH } from './upload-config.js';
import type { PutChunkInput, UploadStatus } from './upload.schema.js';
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
 * PUT /upload/chunked/{id}: appends one chunk, in two statements. The first
 * takes the upload's write lease (a token and a time it lapses, on its row) and
 * reads where it stands; the bytes go to storage at the offset it answered; the
 * second moves the offset and gives the lease back in one UPDATE, only while the
 * lease is still ours. So racing PUTs on one upload run one after the other (a
 * PUT that finds the lease taken waits for it), and the new offset is committed
 * after its bytes are written: a crash in between leaves unconfirmed bytes that
 * the next chunk overwrites, never a corrupt file. A lease left by a crashed
 * process lapses after LEASE_SECONDS. (Before: a transaction holding the row
 * lock, five statements per chunk.)
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

/** as long as a chunk's write may take (the transaction's timeout before); a lease is released at once normally */
const LEASE_SECONDS = 60;

interface UploadRow {
  id: string;
  state: string;
  received: string;
  file_size: string;
  storage_key: string;
  upload_queue_id: string | null;
}

const ROW = 'id, state, received::text AS received, file_size::text AS file_size, storage_key, upload_queue_id';

function statusOf(u: UploadRow): UploadStatus {
  return {
    id: u.id,
    state: u.state,
    received: Number(u.received),
    fileSize: Number(u.file_size),
    uploadQueueId: u.state === 'done' ? u.upload_queue_id : null,
  };
}

/** takes the upload's write lease, waiting while another PUT holds it; null when there is no such upload */
async function takeLease(ctx: UserContext, id: string, lease: string): Promise<UploadRow | null> {
  const deadline = Date.now() + LEASE_SECONDS * 1000;
  for (let wait = 2; ; wait = Math.min(wait * 2, 50)) {
    const [row] = await ctx.sql.write<UploadRow>(
      `UPDATE chunked_upload SET write_lease = $3, write_lease_until = now() + make_interval(secs => $4)
       WHERE environment_id = $1 AND id = $2 AND (write_lease IS NULL OR write_lease_until < now())
       RETURNING ${ROW}`,
      [id, lease, LEASE_SECONDS],
    );
    if (row) return row;
    const [exists] = await ctx.sql.read<{ id: string }>('SELECT id FROM chunked_upload WHERE environment_id = $1 AND id = $2', [
      id,
    ]);
    if (!exists) return null;
    if (Date.now() > deadline) throw new ConflictError('another chunk of this upload is being written; send it again later');
    await new Promise((r) => setTimeout(r, wait));
  }
}

async function releaseLease(ctx: UserContext, id: string, lease: string): Promise<void> {
  await ctx.sql.write(
    'UPDATE chunked_upload SET write_lease = NULL, write_lease_until = NULL WHERE environment_id = $1 AND id = $2 AND write_lease = $3 RETURNING id',
    [id, lease],
  );
}

async function appendChunk(ctx: UserContext, input: PutChunkInput, bytes: Buffer): Promise<UploadStatus> {
  const storage = requireStorage(ctx);
  const config = ctx.services?.uploads ?? DEFAULT_UPLOAD_CONFIG;
  if (input.checksum && createHash('sha256').update(bytes).digest('hex') !== input.checksum.toLowerCase()) {
    throw new ValidationError([
      { path: 'checksum', message: 'the chunk does not match its checksum', code: 'checksum_mismatch' },
    ]);
  }
  const lease = randomBytes(12).toString('hex');
  const u = await takeLease(ctx, input.id, lease);
  if (!u) throw new NotFoundError('chunked upload', input.id);
  let confirmed = false;
  try {
    const received = Number(u.received);
    const size = Number(u.file_size);
    // a repeated chunk whose answer was lost: already applied, answer the status unchanged;
    // but only when it is the same bytes: other bytes at a confirmed pointer are a conflict
    // (two writers, or a client that lost track), never silently dropped with a 200
    if (input.pointer !== undefined && input.pointer + bytes.length === received && input.pointer < received) {
      const stored = await storage.readAt(u.storage_key, input.pointer, bytes.length);
      if (stored.equals(bytes)) return statusOf(u);
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
    const total = received + bytes.length;
    const done = total === size;
    // the last chunk is flushed to the disk before the upload is done (it becomes a document);
    // earlier ones are not (see README: what a crash can lose)
    await storage.writeAt(u.storage_key, received, bytes, { sync: done });
    let contentType: string | null = null;
    if (done) {
      const head = await storage.readHead(u.storage_key, 5);
      contentType = head.toString('latin1') === '%PDF-' ? 'application/pdf' : 'application/octet-stream';
    }
    const now = ctx.clock.now();
    const [updated] = await ctx.sql.write<UploadRow>(
      `UPDATE chunked_upload SET received = $4::bigint, state = $5, upload_queue_id = COALESCE($6, upload_queue_id),
         content_type = COALESCE($7, content_type), expires_at = $8, updated_at = $9,
         write_lease = NULL, write_lease_until = NULL
       WHERE environment_id = $1 AND id = $2 AND write_lease = $3
       RETURNING ${ROW}`,
      [
        u.id,
        lease,
        String(total),
        done ? 'done' : 'in_progress',
        done ? newEntityId('uploadqueue') : null,
        contentType,
        new Date(now.getTime() + config.expirySeconds * 1000),
        now,
      ],
    );
    // the lease lapsed while the bytes were written (a disk slower than LEASE_SECONDS) and another
    // PUT may have taken it: this chunk is not recorded; the client asks for the pointer and resends
    if (!updated) throw new ConflictError('the chunk was not recorded in time; ask for the pointer and send it again');
    confirmed = true;
    return statusOf(updated);
  } finally {
    // a release that fails (the database gone) must not hide the answer: the lease then lapses by itself
    if (!confirmed) await releaseLease(ctx, input.id, lease).catch(() => {});
  }
}
