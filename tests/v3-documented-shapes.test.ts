import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Receiver, waitFor } from './support/receiver.js';
import { type ApiClient, startTestService, type TestService } from './support/service.js';
import { documentValidator } from './support/v3.js';

let t: TestService;
let acme: ApiClient;
let receiver: Receiver;
let matches: Awaited<ReturnType<typeof documentValidator>>;

beforeAll(async () => {
  t = await startTestService({ runWorker: true, webhooks: { pollIntervalMs: 25 } });
  acme = await t.environment('acme');
  receiver = await new Receiver().start();
  matches = await documentValidator(acme);
});
afterAll(async () => {
  await receiver?.stop();
  await t?.stop();
});

describe('v3 answers match the schemas the OpenAPI document publishes', () => {
  it('organization.list and organization.get, with and without addresses and references', async () => {
    const types = await t.db.query<{ id: string }>(
      `SELECT r.id FROM relation_type r JOIN environment e ON e.id = r.environment_id WHERE e.name = 'acme' LIMIT 1`,
    );
    const full = await acme.v2('POST', '/crm/organization', {
      name: 'Shaped BV',
      relation_type: { id: types[0]?.id },
      visiting_address: { line_1: 'Main 1', locality: 'Utrecht' },
    });
    await acme.v2('POST', '/crm/organization', { name: 'Bare BV' });
    const list = await acme.v3('GET', '/organization.list');
    expect(list.status).toBe(200);
    const items = (list.body as { items: unknown[] }).items;
    expect(items.length).toBeGreaterThanOrEqual(2);
    for (const item of items) matches('Crm.Organization', item);
    const id = (full.body as { data: { id: string } }).data.id;
    matches('Crm.Organization', (await acme.v3('GET', `/organization.get/${encodeURIComponent(id)}`)).body);
  });

  it('webhook.create, list, get, edit, the delivery log, resend of a delivered event and delete', async () => {
    const created = await acme.v3('POST', '/webhook.create', { url: receiver.url, events: ['organization.created'] });
    expect(created.status, created.text).toBe(201);
    matches('Webhook.Created', created.body);
    const id = (created.body as { id: string }).id;

    const list = await acme.v3('GET', '/webhook.list');
    expect(list.status).toBe(200);
    for (const item of (list.body as { items: unknown[] }).items) matches('Webhook.Subscription', item);
    matches('Webhook.Subscription', (await acme.v3('GET', `/webhook.get/${encodeURIComponent(id)}`)).body);
    const edited = await acme.v3('POST', '/webhook.edit', { id, description: 'documented' });
    expect(edited.status, edited.text).toBe(200);
    matches('Webhook.Subscription', edited.body);

    await acme.v2('POST', '/crm/organization', { name: 'Documented Shapes' });
    await waitFor(() => receiver.received.length > 0, 10_000);
    const deliveries = await waitFor(async () => {
      const res = await acme.v3('GET', `/webhook.delivery.list?webhookId=${encodeURIComponent(id)}`);
      const items = (res.body as { items: { id: string; status: string }[] }).items;
      return items.length > 0 && items[0]?.status === 'succeeded' ? items : null;
    }, 10_000);
    for (const d of deliveries) matches('Webhook.Delivery', d);
    const deliveryId = deliveries[0]?.id ?? '';
    matches('Webhook.Delivery', (await acme.v3('GET', `/webhook.delivery.get/${encodeURIComponent(deliveryId)}`)).body);
    // only a failed delivery is sent again; a delivered one is a documented 422
    const resent = await acme.v3('POST', '/webhook.delivery.resend', { id: deliveryId });
    expect(resent.status, resent.text).toBe(422);
    matches('ConstraintViolation', resent.body);

    const deleted = await acme.v3('POST', '/webhook.delete', { id });
    expect(deleted.status).toBe(200);
    matches('Webhook.Deleted', deleted.body);
  });
});
