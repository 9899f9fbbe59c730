import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Received, Receiver, waitFor } from './support/receiver.js';
import { type ApiClient, startTestService, type TestService } from './support/service.js';

/**
 * Issue 29, section 4: deliveries are signed as the Standard Webhooks specification does, so a
 * receiver verifies them with that specification's own library (the npm package
 * `standardwebhooks` here), and a captured delivery cannot be replayed later.
 */

let t: TestService;
let acme: ApiClient;
const receivers: Receiver[] = [];

beforeAll(async () => {
  t = await startTestService({
    runWorker: true,
    webhooks: { retryBaseMs: 50, retryMaxDelayMs: 200, timeoutMs: 1_000, pollIntervalMs: 25 },
  });
  acme = await t.environment('acme');
});
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.stop()));
  await t?.stop();
});

async function receiver(): Promise<Receiver> {
  const r = await new Receiver().start();
  receivers.push(r);
  return r;
}

async function subscribe(url: string): Promise<{ id: string; secret: string }> {
  const res = await acme.v3('POST', '/webhook.create', { url, events: ['organization.created'] });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; secret: string };
}

/** creates an organization and waits for its delivery at `r` */
async function deliveryOf(r: Receiver, name: string): Promise<Received> {
  const res = await acme.v2('POST', '/crm/organization', { name });
  expect(res.status, res.text).toBe(200);
  const id = (res.body as { data: { id: string } }).data.id;
  return waitFor(() => r.received.find((x) => x.body.data.id === id), 10_000, `the delivery of ${name}`);
}

/** the three Standard Webhooks headers of a received delivery */
function standardHeaders(d: Received): { 'webhook-id': string; 'webhook-timestamp': string; 'webhook-signature': string } {
  return {
    'webhook-id': String(d.headers['webhook-id']),
    'webhook-timestamp': String(d.headers['webhook-timestamp']),
    'webhook-signature': String(d.headers['webhook-signature']),
  };
}

describe('Standard Webhooks signatures', () => {
  it('a new secret is whsec_ and the standard base64 of a 24-byte key', async () => {
    const { secret } = await subscribe('http://127.0.0.1:9/never');
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(24);
  });

  it('a delivery carries webhook-id (the event id), webhook-timestamp (seconds, at sending) and webhook-signature, and verifies with the standardwebhooks library', async () => {
    const r = await receiver();
    const { secret } = await subscribe(r.url);
    const before = Math.floor(Date.now() / 1000);
    const d = await deliveryOf(r, 'Signed Standard BV');
    const headers = standardHeaders(d);
    expect(headers['webhook-id']).toBe(d.body.id);
    expect(headers['webhook-id']).toBe(d.headers['x-webhook-id']);
    const ts = Number(headers['webhook-timestamp']);
    expect(ts).toBeGreaterThanOrEqual(before - 1);
    expect(ts).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + 1);
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    const payload = new Webhook(secret).verify(d.raw, headers) as { id: string; type: string };
    expect(payload).toMatchObject({ id: d.body.id, type: 'organization.created' });
  });

  it('the signature covers the id, the timestamp and the body: a replay with a new timestamp, another id or a changed body fails verification', async () => {
    const r = await receiver();
    const { secret } = await subscribe(r.url);
    const d = await deliveryOf(r, 'Replay Guard BV');
    const headers = standardHeaders(d);
    const wh = new Webhook(secret);
    // a replay a minute later with its timestamp moved forward, so that the receiver's tolerance would accept it
    const later = { ...headers, 'webhook-timestamp': String(Number(headers['webhook-timestamp']) + 60) };
    expect(() => wh.verify(d.raw, later)).toThrow();
    expect(() => wh.verify(d.raw, { ...headers, 'webhook-id': 'another-id' })).toThrow();
    expect(() => wh.verify(d.raw.replace('Replay Guard BV', 'Replay Guarf BV'), headers)).toThrow();
    // the original still verifies, and the same delivery replayed after the tolerance (5 minutes) does not
    expect(() => wh.verify(d.raw, headers)).not.toThrow();
    const old = Number(headers['webhook-timestamp']) - 600;
    const oldSignature = `v1,${createHmac('sha256', Buffer.from(secret.slice(6), 'base64'))
      .update(`${headers['webhook-id']}.${old}.${d.raw}`)
      .digest('base64')}`;
    expect(() => wh.verify(d.raw, { ...headers, 'webhook-timestamp': String(old), 'webhook-signature': oldSignature })).toThrow();
  });

  it('the deprecated X-Webhook-Signature (sha256=<hex HMAC of the body>) is still sent beside it', async () => {
    const r = await receiver();
    const { secret } = await subscribe(r.url);
    const d = await deliveryOf(r, 'Old Header BV');
    expect(d.headers['x-webhook-signature']).toBe(`sha256=${createHmac('sha256', secret).update(d.raw).digest('hex')}`);
  });
});

describe('webhook.rotateSecret', () => {
  it('answers a new secret this once; for 24 hours every delivery is signed with the new and the previous secret, and each verifies', async () => {
    const r = await receiver();
    const { id, secret: first } = await subscribe(r.url);
    const rotated = await acme.v3('POST', '/webhook.rotateSecret', { id });
    expect(rotated.status, rotated.text).toBe(200);
    const second = (rotated.body as { id: string; secret: string }).secret;
    expect(rotated.body).toMatchObject({ id, url: r.url });
    expect(second).toMatch(/^whsec_/);
    expect(second).not.toBe(first);
    const got = await acme.v3('GET', `/webhook.get/${encodeURIComponent(id)}`);
    expect(got.text).not.toContain(second);

    const d = await deliveryOf(r, 'Rotating BV');
    const headers = standardHeaders(d);
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(() => new Webhook(second).verify(d.raw, headers)).not.toThrow();
    expect(() => new Webhook(first).verify(d.raw, headers)).not.toThrow();
    // the deprecated header is signed with the current secret only
    expect(d.headers['x-webhook-signature']).toBe(`sha256=${createHmac('sha256', second).update(d.raw).digest('hex')}`);
    const stored = await t.db.query<{ hours: number }>(
      `SELECT extract(epoch FROM previous_secret_expires_at - updated_at) / 3600 AS hours FROM webhook_subscription WHERE id = $1`,
      [id],
    );
    expect(Number(stored[0]?.hours)).toBeCloseTo(24, 3);
  });

  it('once the 24 hours are over, only the new secret signs: the previous one no longer verifies', async () => {
    const r = await receiver();
    const { id, secret: first } = await subscribe(r.url);
    const rotated = await acme.v3('POST', '/webhook.rotateSecret', { id });
    const second = (rotated.body as { secret: string }).secret;
    // the day has passed
    await t.db.query(`UPDATE webhook_subscription SET previous_secret_expires_at = now() - interval '1 second' WHERE id = $1`, [
      id,
    ]);
    const d = await deliveryOf(r, 'Rotated BV');
    const headers = standardHeaders(d);
    expect(headers['webhook-signature'].split(' ')).toHaveLength(1);
    expect(() => new Webhook(second).verify(d.raw, headers)).not.toThrow();
    expect(() => new Webhook(first).verify(d.raw, headers)).toThrow();
  });

  it('a second rotation within the day ends the first one’s grace: the secrets of the last rotation sign, the first no longer', async () => {
    const r = await receiver();
    const { id, secret: first } = await subscribe(r.url);
    const second = ((await acme.v3('POST', '/webhook.rotateSecret', { id })).body as { secret: string }).secret;
    const third = ((await acme.v3('POST', '/webhook.rotateSecret', { id })).body as { secret: string }).secret;
    const d = await deliveryOf(r, 'Twice Rotated BV');
    const headers = standardHeaders(d);
    expect(() => new Webhook(third).verify(d.raw, headers)).not.toThrow();
    expect(() => new Webhook(second).verify(d.raw, headers)).not.toThrow();
    expect(() => new Webhook(first).verify(d.raw, headers)).toThrow();
  });

  it('an unknown subscription answers 404, a missing id 422 with its violation, an unknown field 400, and a token without the webhooks right 403; nothing changes', async () => {
    const { id } = await subscribe('http://127.0.0.1:9/never');
    const before = await t.db.query<{ secret: string }>('SELECT secret FROM webhook_subscription WHERE id = $1', [id]);
    expect((await acme.v3('POST', '/webhook.rotateSecret', { id: 'webhook:nope' })).status).toBe(404);
    expect((await acme.v3('POST', '/webhook.rotateSecret', {})).status).toBe(422);
    expect((await acme.v3('POST', '/webhook.rotateSecret', { id, colour: 'red' })).status).toBe(400);
    const crmOnly = await t.user('acme', 'rotate-crm-only@acme.test', { crm: 'write' });
    expect((await crmOnly.v3('POST', '/webhook.rotateSecret', { id })).status).toBe(403);
    const after = await t.db.query<{ secret: string }>('SELECT secret FROM webhook_subscription WHERE id = $1', [id]);
    expect(after).toEqual(before);
  });
});
