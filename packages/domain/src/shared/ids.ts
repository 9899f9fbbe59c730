import { randomFillSync } from 'node:crypto';

// Random bytes are drawn from the system's generator 4 kB at a time and handed out 16 at a time:
// a call into it per id (several per write) showed in the create profile
const POOL_BYTES = 4096;
const pool = Buffer.alloc(POOL_BYTES);
let offset = POOL_BYTES;

/** 16 fresh random bytes (each byte handed out once) */
function random16(): Buffer {
  if (offset + 16 > POOL_BYTES) {
    randomFillSync(pool);
    offset = 0;
  }
  const bytes = Buffer.from(pool.subarray(offset, offset + 16));
  offset += 16;
  return bytes;
}

/** `<entity_type>:<hash>`: the opaque id form of most entities. */
export function newEntityId(entityType: string): string {
  return `${entityType}:${random16().toString('hex')}`;
}

/** RFC 9562 UUID version 7: 48-bit Unix ms time, then random bits. */
export function uuidv7(now: number = Date.now()): string {
  const bytes = random16();
  bytes.writeUIntBE(now, 0, 6);
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x70;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export function isUuidV7(id: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(id);
}

/** The entity type part of an `<entity_type>:<hash>` id, or null for a UUID. */
export function idPrefix(id: string): string | null {
  const i = id.indexOf(':');
  return i > 0 ? id.slice(0, i) : null;
}
