// applyMigrations against the real local PostgreSQL server, in databases this
// file creates with random names and drops afterwards.
import { createHash, randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyMigrations, MigrationHistoryError, migrationsDir } from '../src/migrations.js';

const adminUrl = process.env.TEST_PG_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const created: string[] = [];

function urlFor(database: string): string {
  const u = new URL(adminUrl);
  u.pathname = `/${database}`;
  return u.toString();
}

async function withAdmin<T>(fn: (c: pg.Client) => Promise<T>, url = adminUrl): Promise<T> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

async function freshDatabase(): Promise<string> {
  const name = `bo_dbtest_${randomBytes(6).toString('hex')}`;
  await withAdmin((c) => c.query(`CREATE DATABASE "${name}"`));
  created.push(name);
  return urlFor(name);
}

async function localMigrations(): Promise<{ name: string; checksum: string }[]> {
  const entries = await readdir(migrationsDir, { withFileTypes: true });
  const names = entries.filter((e) => e.isDirectory()).map((e) => e.name);
  names.sort((a, b) => a.localeCompare(b));
  return Promise.all(
    names.map(async (name) => ({
      name,
      checksum: createHash('sha256')
        .update(await readFile(path.join(migrationsDir, name, 'migration.sql')))
        .digest('hex'),
    })),
  );
}

async function expectHistoryError(url: string): Promise<MigrationHistoryError> {
  const err: unknown = await applyMigrations(url).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(MigrationHistoryError);
  if (!(err instanceof MigrationHistoryError)) throw new Error('unreachable');
  return err;
}

let url: string;
let first: string;

beforeAll(async () => {
  url = await freshDatabase();
  const local = await localMigrations();
  if (!local[0]) throw new Error(`no migration folders in ${migrationsDir}`);
  first = local[0].name;
});

afterAll(async () => {
  await withAdmin(async (c) => {
    for (const name of created) await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  });
});

describe('applyMigrations', () => {
  it('applies every migration folder once and records each in _prisma_migrations with Prisma checksum', async () => {
    const local = await localMigrations();
    const { applied } = await applyMigrations(url);
    expect(applied).toEqual(local.map((m) => m.name));
    const rows = await withAdmin(
      (c) =>
        c.query<{ migration_name: string; checksum: string; finished: boolean }>(
          'SELECT migration_name, checksum, finished_at IS NOT NULL AND rolled_back_at IS NULL AS finished FROM _prisma_migrations ORDER BY migration_name',
        ),
      url,
    );
    expect(rows.rows).toEqual(local.map((m) => ({ migration_name: m.name, checksum: m.checksum, finished: true })));
  });

  it('is idempotent: a second call applies nothing and adds no rows', async () => {
    const before = await withAdmin((c) => c.query('SELECT count(*)::int AS n FROM _prisma_migrations'), url);
    const { applied } = await applyMigrations(url);
    expect(applied).toEqual([]);
    const after = await withAdmin((c) => c.query('SELECT count(*)::int AS n FROM _prisma_migrations'), url);
    expect(after.rows).toEqual(before.rows);
  });

  it('when nothing is pending, one query on the history answers: no lock is taken and no engine is started', async () => {
    // another session holds the migration lock: the check must not wait for it
    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    try {
      await holder.query('SELECT pg_advisory_lock(72707370)');
      const answer = await Promise.race([
        applyMigrations(url),
        new Promise<'waited'>((resolve) => setTimeout(() => resolve('waited'), 5000)),
      ]);
      expect(answer).toEqual({ applied: [] });
    } finally {
      await holder.end();
    }
  });

  it('lets concurrent callers on one server migrate once between them (advisory lock)', async () => {
    const other = await freshDatabase();
    const results = await Promise.all([applyMigrations(other), applyMigrations(other), applyMigrations(other)]);
    const local = await localMigrations();
    expect(results.map((r) => r.applied.length).sort()).toEqual([0, 0, local.length]);
    const rows = await withAdmin((c) => c.query('SELECT count(*)::int AS n FROM _prisma_migrations'), other);
    expect(rows.rows).toEqual([{ n: local.length }]);
  });

  it('refuses a drifted history (recorded checksum differs from migration.sql) with MigrationHistoryError', async () => {
    await withAdmin(
      (c) => c.query(`UPDATE _prisma_migrations SET checksum = 'deadbeef' WHERE migration_name = $1`, [first]),
      url,
    );
    try {
      const err = await expectHistoryError(url);
      expect(err.details.edited).toEqual([first]);
      expect(err.message).toContain(first);
      expect(err.message).toMatch(/modified after it was applied/);
      expect(err.message).toMatch(/Fix: restore the original file/);
    } finally {
      const sum = (await localMigrations()).find((m) => m.name === first)?.checksum;
      await withAdmin((c) => c.query('UPDATE _prisma_migrations SET checksum = $2 WHERE migration_name = $1', [first, sum]), url);
    }
  });

  it('refuses a failed migration row (finished_at null, not rolled back) with MigrationHistoryError', async () => {
    const name = '20000101000000_half_done';
    await withAdmin(
      (c) =>
        c.query(
          `INSERT INTO _prisma_migrations (id, checksum, migration_name, logs, started_at, applied_steps_count)
           VALUES ($1, 'x', $2, 'syntax error', now(), 0)`,
          [randomBytes(16).toString('hex'), name],
        ),
      url,
    );
    try {
      const err = await expectHistoryError(url);
      expect(err.details.failed).toEqual([name]);
      expect(err.message).toContain(`Migration "${name}" failed`);
      expect(err.message).toMatch(/rolled_back_at = now\(\)/);
    } finally {
      await withAdmin((c) => c.query('DELETE FROM _prisma_migrations WHERE migration_name = $1', [name]), url);
    }
  });

  it('refuses a history with a recorded migration whose folder is missing with MigrationHistoryError', async () => {
    const name = '20991231235959_from_another_branch';
    await withAdmin(
      (c) =>
        c.query(
          `INSERT INTO _prisma_migrations (id, checksum, migration_name, started_at, finished_at, applied_steps_count)
           VALUES ($1, 'x', $2, now(), now(), 1)`,
          [randomBytes(16).toString('hex'), name],
        ),
      url,
    );
    try {
      const err = await expectHistoryError(url);
      expect(err.details.missingLocally).toEqual([name]);
      expect(err.message).toMatch(/not in .*prisma\/migrations/);
      expect(err.message).toContain(name);
    } finally {
      await withAdmin((c) => c.query('DELETE FROM _prisma_migrations WHERE migration_name = $1', [name]), url);
    }
  });

  it('applies again once the history is repaired', async () => {
    expect(await applyMigrations(url)).toEqual({ applied: [] });
  });
});
