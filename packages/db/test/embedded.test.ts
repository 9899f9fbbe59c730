// The embedded PGlite database: persistence across restarts, the one-process
// rule on its data dir, and port conflicts. Needs no PostgreSQL server.
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmbeddedDatabase } from '../src/embedded.js';
import { applyMigrations } from '../src/migrations.js';

const dirs: string[] = [];
async function tempDir(): Promise<string> {
  const d = await mkdtemp(path.join(os.tmpdir(), 'bo-embedded-'));
  dirs.push(d);
  return d;
}

afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

describe('startEmbeddedDatabase', () => {
  it('keeps migrated schema and rows across stop and start (data persisted under <dataDir>/pglite)', async () => {
    const dataDir = await tempDir();
    const first = await startEmbeddedDatabase({ dataDir });
    expect(first.connectionString).toBe(`postgresql://postgres@127.0.0.1:${first.port}/postgres`);
    const { applied } = await applyMigrations(first.connectionString);
    expect(applied.length).toBeGreaterThan(0);
    const pool = new pg.Pool({ connectionString: first.connectionString, max: 1 });
    await pool.query('INSERT INTO environment (id, name) VALUES ($1, $2)', ['env-1', 'Acme']);
    await pool.end();
    await first.stop();
    expect((await stat(path.join(dataDir, 'pglite'))).isDirectory()).toBe(true);

    const second = await startEmbeddedDatabase({ dataDir });
    try {
      expect(await applyMigrations(second.connectionString)).toEqual({ applied: [] });
      const client = new pg.Client({ connectionString: second.connectionString });
      await client.connect();
      const rows = await client.query('SELECT id, name FROM environment');
      await client.end();
      expect(rows.rows).toEqual([{ id: 'env-1', name: 'Acme' }]);
    } finally {
      await second.stop();
    }
  }, 180_000);

  it('refuses to open a data dir another live process holds, with a clear message', async () => {
    const dataDir = await tempDir();
    // The parent of this worker is alive for the whole test: a live pid that is not ours.
    await writeFile(path.join(dataDir, 'pglite.lock'), String(process.ppid));
    await expect(startEmbeddedDatabase({ dataDir })).rejects.toThrow(
      new RegExp(`is in use by process ${process.ppid}.*only one process`),
    );
  });

  it('takes over a stale lock left by a dead process', async () => {
    const dataDir = await tempDir();
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
    await writeFile(path.join(dataDir, 'pglite.lock'), dead.stdout.toString());
    const db = await startEmbeddedDatabase({ dataDir });
    try {
      // and while it runs, the same data dir cannot be opened again
      await expect(startEmbeddedDatabase({ dataDir })).rejects.toThrow(/is in use by this process/);
    } finally {
      await db.stop();
    }
  }, 120_000);

  it('fails with a clear message when the requested port is taken', async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const address = blocker.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    try {
      await expect(startEmbeddedDatabase({ dataDir: await tempDir(), port: address.port })).rejects.toThrow(
        `port ${address.port} on 127.0.0.1 is already in use`,
      );
    } finally {
      await new Promise<void>((resolve) => blocker.close(() => resolve()));
    }
  }, 120_000);
});
