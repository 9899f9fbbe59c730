import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** Secrets carry 256 random bits, so a plain SHA-256 is enough to store them. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

export function secretMatches(secret: string, storedHash: string): boolean {
  const a = Buffer.from(hashSecret(secret), 'hex');
  const b = Buffer.from(storedHash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

export function newTokenCredentials(): { key: string; secret: string } {
  return { key: randomBytes(16).toString('hex'), secret: randomBytes(32).toString('base64url') };
}
