import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startService } from '@bo/server';
import { send } from './support/http.js';

const dataDir = mkdtempSync(path.join(tmpdir(), 'bo-embedded-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

function config() {
  return {
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
    runWorker: false,
    rateLimitPerMinute: 600,
  };
}

describe('embedded default (no DATABASE_URL)', () => {
  it('serves the demo environment, and finds its data again after a restart', async () => {
    const first = await startService(config());
    let createdId: string;
    let firstToken: { key: string; secret: string } | null = null;
    try {
      expect(first.database.mode).toBe('embedded');
      const demo = first.demo;
      expect(demo).not.toBeNull();
      const headers = { 'authentication-key': demo?.token?.key ?? '', 'authentication-secret': demo?.token?.secret ?? '' };
      firstToken = demo?.token ?? null;
      const seeded = await send(first.port, 'GET', '/api/v2/crm/organization?metadata=count', {
        host: 'demo.localhost',
        headers,
      });
      expect(seeded.status).toBe(200);
      expect((seeded.body as { metadata: { count: number } }).metadata.count).toBeGreaterThanOrEqual(5);
      const created = await send(first.port, 'POST', '/api/v2/crm/organization', {
        host: 'demo.localhost',
        headers,
        body: { name: 'Survives Restart' },
      });
      expect(created.status).toBe(200);
      createdId = (created.body as { data: { id: string } }).data.id;
    } finally {
      await first.stop();
    }

    const second = await startService(config());
    try {
      const demo = second.demo;
      // the demo token is made on the first start only: a restart makes none, the first one still works
      expect(demo?.environment).toBe('demo');
      expect(demo?.token).toBeNull();
      const headers = { 'authentication-key': firstToken?.key ?? '', 'authentication-secret': firstToken?.secret ?? '' };
      const again = await send(second.port, 'GET', `/api/v2/crm/organization/${createdId}`, { host: 'demo.localhost', headers });
      expect(again.status).toBe(200);
      expect((again.body as { data: { name: string } }).data.name).toBe('Survives Restart');
      const v3 = await send(second.port, 'GET', '/api/v3/organization.list?name=Survives%20Restart', {
        host: 'demo.localhost',
        headers: { authorization: `Bearer ${firstToken?.key}:${firstToken?.secret}` },
      });
      expect((v3.body as { totalItems: number }).totalItems).toBe(1);
      // the demo is seeded once: a restart does not add the demo organizations again
      const count = await send(second.port, 'GET', '/api/v2/crm/organization?metadata=count&q[name]=Acme%20Consultancy%20BV', {
        host: 'demo.localhost',
        headers,
      });
      expect((count.body as { metadata: { count: number } }).metadata.count).toBe(1);
    } finally {
      await second.stop();
    }
  }, 120_000);
});
