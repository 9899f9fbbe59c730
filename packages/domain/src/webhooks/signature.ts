import { createHmac, randomBytes } from 'node:crypto';

/**
 * A new signing secret, as the Standard Webhooks specification shapes it: `whsec_` and the key in
 * standard base64 (24 random bytes: 32 characters, no padding). Shown once, in the answer of
 * webhook.create and of webhook.rotateSecret.
 */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

/**
 * The HMAC key of a secret under Standard Webhooks: the base64 after `whsec_`. Secrets made before
 * the standard signature are `whsec_` + base64url; Node decodes both alphabets, so they sign
 * alike (a receiver library that reads standard base64 only needs a rotated secret).
 */
function standardKey(secret: string): Buffer {
  return Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64');
}

/** `v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">`, one signature of the `webhook-signature` header */
export function standardSignature(secret: string, id: string, timestampSeconds: number, rawBody: string | Buffer): string {
  const mac = createHmac('sha256', standardKey(secret));
  mac.update(`${id}.${timestampSeconds}.`);
  mac.update(rawBody);
  return `v1,${mac.digest('base64')}`;
}

/**
 * The Standard Webhooks headers of one attempt: `webhook-id` (the event's id, the same on every
 * retry), `webhook-timestamp` (seconds, at sending: receivers refuse old ones, so a captured
 * delivery cannot be replayed later) and `webhook-signature`, space-separated signatures, one per
 * valid secret (during a rotation, the new secret's and the previous one's).
 */
export function standardWebhookHeaders(
  secrets: readonly string[],
  id: string,
  sentAt: Date,
  rawBody: string | Buffer,
): { 'webhook-id': string; 'webhook-timestamp': string; 'webhook-signature': string } {
  const timestamp = Math.floor(sentAt.getTime() / 1000);
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': secrets.map((s) => standardSignature(s, id, timestamp, rawBody)).join(' '),
  };
}

/**
 * Deprecated (kept until 2027-06-30, docs/webhooks.md): `sha256=<hex HMAC-SHA256 of the exact raw
 * body, keyed with the secret's UTF-8 bytes>`, with no timestamp, so it does not stop a replay.
 */
export function signBody(secret: string, rawBody: string | Buffer): string {
  return `sha256=${createHmac('sha256', secret).update(rawBody).digest('hex')}`;
}
