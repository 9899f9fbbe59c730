import { EVENT_PAYLOAD_VERSION } from '../shared/events.js';
import type { ClaimedDelivery } from './delivery-claims.js';
import { signBody, standardWebhookHeaders } from './signature.js';
import { checkTarget } from './target-policy.js';
import type { WebhookConfig } from './webhook-config.js';
import type { WebhookTransport } from './webhook-transport.js';

export interface AttemptOutcome {
  startedAt: Date;
  statusCode: number | null;
  /** null on a 2xx answer */
  error: string | null;
  latencyMs: number;
}

/** The exact bytes sent (and signed): the same for every attempt of one event. */
export function deliveryBody(d: ClaimedDelivery): string {
  return JSON.stringify({
    id: d.eventId,
    type: d.eventType,
    occurredAt: d.occurredAt.toISOString(),
    environment: d.environment,
    payloadVersion: EVENT_PAYLOAD_VERSION,
    data: d.data,
  });
}

/** One attempt, not yet recorded: re-checks the target, signs and POSTs through the transport. */
export async function attemptDelivery(
  config: WebhookConfig,
  d: ClaimedDelivery,
  transport: WebhookTransport,
): Promise<AttemptOutcome> {
  const startedAt = new Date();
  const started = performance.now();
  const body = deliveryBody(d);
  try {
    const url = new URL(d.url);
    const target = await checkTarget(url, config.allowPrivateTargets);
    if (!target.ok) throw new Error(`target refused: ${target.reason}`);
    const statusCode = await transport.post({
      url,
      // connect to the address just checked, so a name cannot resolve elsewhere in between
      address: target.address,
      family: target.family,
      body,
      headers: {
        'content-type': 'application/json',
        'user-agent': 'bizops-webhooks/1',
        'x-webhook-id': d.eventId,
        'x-webhook-event': d.eventType,
        'x-webhook-delivery': d.id,
        'x-webhook-attempt': String(d.attempt),
        'x-webhook-environment': `${d.environment}.${config.publicDomain}`,
        ...standardWebhookHeaders(d.previousSecret ? [d.secret, d.previousSecret] : [d.secret], d.eventId, startedAt, body),
        // deprecated, documented until 2027-06-30: no timestamp, so a captured delivery replays
        'x-webhook-signature': signBody(d.secret, body),
        // the request that made the change, so a receiver's logs and ours meet
        ...(d.requestId ? { 'x-request-id': d.requestId } : {}),
      },
      timeoutMs: config.timeoutMs,
    });
    return {
      startedAt,
      statusCode,
      error: statusCode >= 200 && statusCode < 300 ? null : `answered ${statusCode}`,
      latencyMs: Math.round(performance.now() - started),
    };
  } catch (err) {
    return {
      startedAt,
      statusCode: null,
      error: (err as Error).message ?? String(err),
      latencyMs: Math.round(performance.now() - started),
    };
  }
}
