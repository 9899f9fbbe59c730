import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_WEBHOOK_CONFIG } from '@bo/domain/webhooks/webhook-config';
import { startService } from '@bo/server';
import { send } from './support/http.js';
import { Receiver, waitFor } from './support/receiver.js';

const dataDir = mkdtempSync(path.join(tmpdir(), 'bo-embedded-webhooks-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('webhooks on the embedded database (PGlite, one connection)', () => {
  it('a committed event is delivered on the embedded database, where the worker polls (the outbox trigger runs there too)', async () => {
    const r = await new Receiver().start();
    const service = await startService({
      port: 0,
      host: '127.0.0.1',
      httpPort: null,
      databaseUrl: undefined,
      dataDir,
      embeddedDbPort: 0,
      tlsCert: undefined,
      tlsKey: undefined,
      trustProxy: false,
      seedDemo: true,
      logLevel: 'silent',
      runWorker: true,
      rateLimitPerMinute: 0,
      // the worker holds no LISTEN connection here (packages/db/test/notifications.test.ts): it polls every 100 ms
      webhooks: { ...DEFAULT_WEBHOOK_CONFIG, allowPrivateTargets: true, pollIntervalMs: 100, listeningPollIntervalMs: 30_000 },
    });
    try {
      expect(service.database.mode).toBe('embedded');
      const token = service.demo?.token;
      if (!token) throw new Error('the demo token');
      const host = 'demo.localhost';
      const sub = await send(service.port, 'POST', '/api/v3/webhook.create', {
        host,
        headers: { authorization: `Bearer ${token.key}:${token.secret}` },
        body: { url: r.url, events: ['organization.created'] },
      });
      expect(sub.status, sub.text).toBe(201);
      const created = await send(service.port, 'POST', '/api/v2/crm/organization', {
        host,
        headers: { 'authentication-key': token.key, 'authentication-secret': token.secret },
        body: { name: 'Polled On PGlite' },
      });
      expect(created.status, created.text).toBe(200);
      const at = Date.now();
      const id = (created.body as { data: { id: string } }).data.id;
      const got = await waitFor(() => r.received.find((x) => x.body.data.id === id), 10_000, 'the delivery');
      expect(got.at - at).toBeLessThan(5_000);
    } finally {
      await service.stop();
      await r.stop();
    }
    // PGlite starts and migrates in the test's own process
  }, 120_000);
});
