import { createHmac, randomBytes } from 'node:crypto';

/** A new signing secret; shown once, in the answer of webhook.create. */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

/** `sha256=<hex HMAC-SHA256 of the exact raw body, keyed with the secret's UTF-8 bytes>` */
export function signBody(secret: string, rawBody: string | Buffer): string {
  return `sha256=${createHmac('sha256', secret).update(rawBody).digest('hex')}`;
}
