import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { FilesystemStorage } from '@bo/db';
import { ALL_RIGHTS } from '@bo/domain';
import { readEnvironmentCatalog } from '@bo/domain/environments-copy/catalog';
import type { CopyContext } from '@bo/domain/environments-copy/copy-context';
import { copyEnvironment } from '@bo/domain/environments-copy/copy-environment';
import { progressOn } from '@bo/domain/environments-copy/progress';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Envelope, post } from './support/crm.js';
import { Receiver, sleep, waitFor } from './support/receiver.js';
import { ApiClient, startTestService, type TestService } from './support/service.js';
import { filesUnder, getBytes } from './support/storage.js';
import { spawnNode } from './support/worker-process.js';

/**
 * `admin environment copy / export / import` (issue 29, section 6): a sandbox copy of an
 * environment with new ids, its references remapped and its files copied; no credential, webhook
 * or outbox event copied; killed half-way, it stays invisible and is resumed or removed.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const reference = JSON.parse(readFileSync(path.resolve(root, '../shared/reference/v2-contract.json'), 'utf8')) as {
  paths: Record<string, Record<string, unknown>>;
};
/** the v2 collections: every reference GET path without a path parameter */
const COLLECTIONS = Object.entries(reference.paths)
  .filter(([p, ops]) => 'get' in ops && !p.includes('{'))
  .map(([p]) => p);

const EMAIL = 'admin@src.test';
let t: TestService;
let src: ApiClient;
let receiver: Receiver;
let documentId: string;
let fileBytes: Buffer;
let tmp: string;

interface CliRun {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | string>;
}

function cli(args: string[]): CliRun {
  // node itself, so that SIGKILL reaches the copy and not a wrapper
  return spawnNode(['--import', 'tsx', 'packages/domain/src/cli/admin.ts', ...args], {
    ...process.env,
    DATABASE_URL: t.db.url,
    DATA_DIR: t.dataDir,
  });
}

async function admin(...args: string[]): Promise<string> {
  const run = cli(args);
  const code = await run.exited;
  expect(code, run.output()).toBe(0);
  return run.output();
}

/** a client of the copied user, with a token made for it in `environment` (tokens are not copied) */
async function clientOf(environment: string): Promise<ApiClient> {
  const token = await t.system.admin.token.create({ environment, user: EMAIL });
  return new ApiClient(t.service.port, `${environment}.localhost`, token);
}

const ID = /[a-z][a-z0-9_]*(?::|%3A)[0-9a-f]{32}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
/** ids also show in derived values (a timeline e-mail address holds the hex of two ids) */
const HEX_ID = /[0-9a-f]{32}/g;

/** a value with every id (whole or inside a URL) and the environment's host replaced, arrays sorted */
function modIds(value: unknown, env: string): unknown {
  if (typeof value === 'string') {
    return value.replace(ID, '<id>').replace(HEX_ID, '<id>').replaceAll(`${env}.localhost`, '<env>');
  }
  if (Array.isArray(value)) {
    return value.map((v) => modIds(v, env)).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
  }
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, modIds(v, env)]));
  }
  return value;
}

/** every page of a collection (limit is at most 100), or its refusal */
async function walk(client: ApiClient, collection: string): Promise<{ status: number; data: unknown }> {
  const items: unknown[] = [];
  for (let offset = 0; ; offset += 100) {
    const sep = collection.includes('?') ? '&' : '?';
    const res = await client.v2('GET', `${collection}${sep}limit=100&offset=${offset}`);
    const body = res.body as Envelope<unknown> | undefined;
    if (res.status !== 200 || !Array.isArray(body?.data)) return { status: res.status, data: body?.errors ?? body?.data };
    items.push(...body.data);
    if (body.data.length < 100) return { status: 200, data: items };
  }
}

/** every v2 collection of both environments, equal modulo ids; answers the copy's lists */
async function expectEqualLists(a: ApiClient, aEnv: string, b: ApiClient, bEnv: string): Promise<unknown[]> {
  const lists: unknown[] = [];
  let compared = 0;
  for (const collection of COLLECTIONS) {
    const [x, y] = [await walk(a, collection), await walk(b, collection)];
    expect({ collection, ...(modIds(y, bEnv) as object) }).toEqual({ collection, ...(modIds(x, aEnv) as object) });
    if (x.status === 200) compared += 1;
    lists.push(y.data);
  }
  // most collections answer a plain list: the comparison is not vacuous
  expect(compared).toBeGreaterThan(60);
  return lists;
}

function idsIn(value: unknown): Set<string> {
  return new Set(JSON.stringify(value).match(ID) ?? []);
}

async function environmentId(name: string): Promise<string | undefined> {
  return (await t.db.query<{ id: string }>('SELECT id FROM environment WHERE name = $1', [name]))[0]?.id;
}

/** rows of an environment in every table that has environment_id */
async function rowsOf(envId: string): Promise<number> {
  const tables = await t.db.query<{ table_name: string }>(
    `SELECT c.table_name FROM information_schema.columns c
       JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
      WHERE c.table_schema = 'public' AND c.column_name = 'environment_id' AND t.table_type = 'BASE TABLE'`,
  );
  let n = 0;
  for (const { table_name } of tables) {
    const r = await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${table_name}" WHERE environment_id = $1`, [
      envId,
    ]);
    n += r[0]?.n ?? 0;
  }
  return n;
}

/** runs a copy as a child process and kills it (SIGKILL) once some batches are committed */
async function killedCopy(to: string, args = ['environment', 'copy', 'src', to, '--batch-size', '1']): Promise<void> {
  const run = cli(args);
  // the CLI's start (tsx, the database) takes seconds on a loaded machine; the copy's first batches come after
  await waitFor(
    async () => {
      const r = await t.db.query<{ p: { tables: Record<string, { rows: number }> } }>(
        'SELECT progress AS p FROM environment_copy WHERE target_name = $1',
        [to],
      );
      const tables = r[0]?.p.tables ?? {};
      return Object.values(tables).reduce((n, x) => n + x.rows, 0) >= 30;
    },
    90_000,
    'the first batches',
  ).finally(() => run.child.kill('SIGKILL'));
  expect(await run.exited).toBe('SIGKILL');
}

beforeAll(async () => {
  t = await startTestService({ runWorker: true });
  tmp = await mkdtemp(path.join(tmpdir(), 'bo-envcopy-'));
  receiver = await new Receiver().start();
  await t.system.admin.environment.create({ name: 'src' });
  src = await t.user('src', EMAIL, ALL_RIGHTS);

  const hook = await src.v3('POST', '/webhook.create', { url: receiver.url, events: ['*'] });
  expect(hook.status, hook.text).toBe(201);
  let person = '';
  for (let i = 0; i < 5; i += 1) {
    const org = await post(src, '/crm/organization', { name: `Org ${i}`, relation_number: `R-${i}` });
    person = await post(src, '/crm/person', { first_name: `P${i}`, family_name: `Person ${i}` });
    await post(src, '/crm/contactperson', { organization_id: org, person_id: person, work_email: `p${i}@org.test` });
  }
  // a chain of supervisors: a reference into the employee table itself
  let supervisor: string | null = null;
  for (let i = 0; i < 6; i += 1) {
    supervisor = await post(src, '/hrm/employee', {
      name: `Employee ${i}`,
      ...(supervisor ? { supervisor: { id: supervisor } } : {}),
    });
  }
  await post(src, '/shared/item', { tag: 'sandbox', data: 'kept' });

  // a document with its file
  fileBytes = Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(70_000)]);
  const started = await src.v2('POST', '/upload/chunked', { file_name: 'contract.pdf', file_size: fileBytes.length });
  expect(started.status, started.text).toBe(200);
  const uploadId = (started.body as Envelope<{ chunked_upload_id: string }>).data.chunked_upload_id;
  const put = await src.v2('PUT', `/upload/chunked/${encodeURIComponent(uploadId)}`, { chunk: fileBytes.toString('base64') });
  expect(put.status, put.text).toBe(200);
  const queueId = (put.body as Envelope<{ upload_queue_id: string }>).data.upload_queue_id;
  const types = await src.v2('GET', '/documents/documenttype');
  const typeId = ((types.body as Envelope<{ id: string }[]>).data[0] as { id: string }).id;
  documentId = await post(src, '/documents/document', {
    upload_queue_id: queueId,
    title: 'The contract',
    document_type_id: typeId,
    linked_to: { person_id: person },
  });
  // the source's own deliveries are made before the copies start
  await waitFor(() => receiver.received.length >= 20, 20_000, 'the source deliveries');
  let seen = -1;
  while (seen !== receiver.received.length) {
    seen = receiver.received.length;
    await sleep(700);
  }
}, 180_000);

afterAll(async () => {
  await receiver?.stop();
  await t?.stop();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

describe('admin environment copy', () => {
  it('copy makes every v2 list equal modulo ids, with references remapped into the new environment', async () => {
    await admin('environment', 'copy', 'src', 'copy1', '--batch-size', '7');
    const copy = await clientOf('copy1');
    const copied = await expectEqualLists(src, 'src', copy, 'copy1');

    // no id of the source is seen in the copy: every reference was remapped
    const sourceIds = idsIn(await Promise.all(COLLECTIONS.map((c) => walk(src, c))));
    const leaked = [...idsIn(copied)].filter((id) => sourceIds.has(id));
    expect(leaked).toEqual([]);

    // a contact person's organization and person are the copy's own
    const contacts = (await walk(copy, '/crm/contactperson')).data as {
      organization_id?: string;
      organization?: { id: string };
    }[];
    const orgIds = new Set(((await walk(copy, '/crm/organization')).data as { id: string }[]).map((o) => o.id));
    expect(contacts.length).toBe(5);
    for (const c of contacts) expect(orgIds.has(c.organization_id ?? c.organization?.id ?? '')).toBe(true);
    const copyEnv = await environmentId('copy1');
    const refs = await t.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM contact_person c JOIN organization o ON o.id = c.organization_id
        WHERE c.environment_id = $1 AND o.environment_id = $1`,
      [copyEnv],
    );
    expect(refs[0]?.n).toBe(5);
    // the supervisors (a reference into the same table) point into the copy too
    const supervised = await t.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM employee e JOIN employee s ON s.id = e.supervisor_id
        WHERE e.environment_id = $1 AND s.environment_id = $1`,
      [copyEnv],
    );
    expect(supervised[0]?.n).toBe(5);
  }, 120_000);

  it('files are copied: a document of the copy downloads the same bytes under its own storage key', async () => {
    const copy = await clientOf('copy1');
    const docs = (await walk(copy, '/documents/document')).data as { id: string; title: string }[];
    const doc = docs.find((d) => d.title === 'The contract');
    expect(doc?.id).toBeDefined();
    expect(doc?.id).not.toBe(documentId);
    const a = await getBytes(src, `/documents/download/${encodeURIComponent(documentId)}`);
    const b = await getBytes(copy, `/documents/download/${encodeURIComponent(doc?.id ?? '')}`);
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(b.bytes.equals(fileBytes)).toBe(true);
    const keys = await t.db.query<{ storage_key: string }>('SELECT storage_key FROM document WHERE id = ANY($1)', [
      [documentId, doc?.id],
    ]);
    expect(new Set(keys.map((k) => k.storage_key)).size).toBe(2);
  });

  it('no webhook is copied and none is delivered for the copied rows; tokens, sessions and events stay behind', async () => {
    const before = receiver.received.length;
    await sleep(1500);
    expect(receiver.received.length).toBe(before);
    const env = await environmentId('copy1');
    for (const table of ['webhook_subscription', 'webhook_delivery', 'event', 'api_token', 'web_session', 'login_link']) {
      const r = await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${table}" WHERE environment_id = $1`, [env]);
      // api_token: only the one this test made for itself
      expect({ table, n: r[0]?.n }).toEqual({ table, n: table === 'api_token' ? 2 : 0 });
    }
    const users = await t.db.query<{ password_hash: string | null }>(
      'SELECT password_hash FROM user_account WHERE environment_id = $1',
      [env],
    );
    expect(users.map((u) => u.password_hash)).toEqual([null]);
  });

  it('export → import: every v2 list of the imported environment equals the source modulo ids', async () => {
    const file = path.join(tmp, 'src.ndjson.gz');
    await admin('environment', 'export', 'src', file, '--batch-size', '50');
    // the file: gzip NDJSON, a header first, the end record last, the document's bytes inside
    const lines = gunzipSync(readFileSync(file)).toString('utf8').trim().split('\n');
    expect(JSON.parse(lines[0] ?? '{}')).toMatchObject({ format: 'bo-environment', version: 1, environment: { name: 'src' } });
    expect(JSON.parse(lines[lines.length - 1] ?? '{}')).toMatchObject({ end: true, files: 1 });
    expect(lines.some((l) => l.startsWith('{"table":"webhook_subscription"') || l.startsWith('{"table":"api_token"'))).toBe(
      false,
    );

    await admin('environment', 'import', file, 'imported');
    const imported = await clientOf('imported');
    await expectEqualLists(src, 'src', imported, 'imported');
    const docs = (await walk(imported, '/documents/document')).data as { id: string }[];
    const dl = await getBytes(imported, `/documents/download/${encodeURIComponent(docs[0]?.id ?? '')}`);
    expect(dl.bytes.equals(fileBytes)).toBe(true);
  }, 120_000);

  it('a truncated export file is refused and leaves nothing visible', async () => {
    const file = path.join(tmp, 'src.ndjson.gz');
    const whole = gunzipSync(readFileSync(file)).toString('utf8').trim().split('\n');
    const cut = path.join(tmp, 'cut.ndjson.gz');
    const { gzipSync } = await import('node:zlib');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(cut, gzipSync(`${whole.slice(0, 40).join('\n')}\n`));
    const run = cli(['environment', 'import', cut, 'halfway']);
    expect(await run.exited, run.output()).toBe(1);
    expect(run.output()).toContain('truncated');
    expect(await environmentId('halfway')).toBeUndefined();
    await admin('environment', 'copy', '--abort', 'halfway');
  }, 120_000);
});

describe('a copy killed half-way', () => {
  it('is invisible to v2 while incomplete, and --resume completes it equal to the source', async () => {
    await killedCopy('resumed');
    // the target exists only under a name no host can address
    expect(await environmentId('resumed')).toBeUndefined();
    const state = await t.db.query<{ target_environment_id: string }>(
      'SELECT target_environment_id FROM environment_copy WHERE target_name = $1',
      ['resumed'],
    );
    const hidden = state[0]?.target_environment_id ?? '';
    expect(await rowsOf(hidden)).toBeGreaterThan(0);
    const probe = new ApiClient(t.service.port, 'resumed.localhost', src.token);
    const res = await probe.v2('GET', '/crm/organization');
    expect(res.status).toBe(404);
    const v3 = await probe.v3('GET', '/organization.list');
    expect(v3.status).toBe(404);

    await admin('environment', 'copy', '--resume', 'resumed', '--batch-size', '50');
    expect(await environmentId('resumed')).toBe(hidden);
    const resumed = await clientOf('resumed');
    await expectEqualLists(src, 'src', resumed, 'resumed');
    expect((await t.db.query('SELECT 1 FROM environment_copy WHERE target_name = $1', ['resumed'])).length).toBe(0);
  }, 240_000);

  it('--abort removes its rows, its files and its hidden environment', async () => {
    const filesBefore = filesUnder(path.join(t.dataDir, 'files')).length;
    await killedCopy('aborted');
    const hidden = (
      await t.db.query<{ target_environment_id: string }>(
        'SELECT target_environment_id FROM environment_copy WHERE target_name = $1',
        ['aborted'],
      )
    )[0]?.target_environment_id as string;
    // the files too: copy them into it before the kill is not certain, so register one as a killed copy would have
    await t.db.query('INSERT INTO environment_copy_file (target_environment_id, storage_key) VALUES ($1, $2)', [
      hidden,
      'documents/ff/abortprobe',
    ]);
    await new FilesystemStorage(path.join(t.dataDir, 'files')).writeAt('documents/ff/abortprobe', 0, Buffer.from('x'));

    await admin('environment', 'copy', '--abort', 'aborted');
    expect(await rowsOf(hidden)).toBe(0);
    expect((await t.db.query('SELECT 1 FROM environment WHERE id = $1', [hidden])).length).toBe(0);
    for (const table of ['environment_copy', 'environment_copy_file', 'environment_copy_deferred']) {
      expect((await t.db.query(`SELECT 1 FROM ${table} WHERE target_environment_id = $1`, [hidden])).length).toBe(0);
    }
    expect(filesUnder(path.join(t.dataDir, 'files')).length).toBe(filesBefore);
    // the name is free again
    await admin('environment', 'copy', 'src', 'aborted', '--batch-size', '100');
  }, 180_000);
});

describe('an import killed half-way', () => {
  it('import --resume completes it: every table holds as many rows as the source, the file included', async () => {
    const file = path.join(tmp, 'resume.ndjson.gz');
    await admin('environment', 'export', 'src', file);
    await killedCopy('reimported', ['environment', 'import', file, 'reimported', '--batch-size', '1']);
    expect(await environmentId('reimported')).toBeUndefined();
    await admin('environment', 'import', file, 'reimported', '--resume');
    const counts = async (name: string) => {
      const catalog = await readEnvironmentCatalog(t.service.database.prisma);
      const id = await environmentId(name);
      const out: Record<string, number> = {};
      for (const table of catalog.tables) {
        const r = await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${table.name}" WHERE environment_id = $1`, [
          id,
        ]);
        out[table.name] = r[0]?.n ?? 0;
      }
      return out;
    };
    expect(await counts('reimported')).toEqual(await counts('src'));
    const client = await clientOf('reimported');
    const docs = (await walk(client, '/documents/document')).data as { id: string }[];
    const dl = await getBytes(client, `/documents/download/${encodeURIComponent(docs[0]?.id ?? '')}`);
    expect(dl.bytes.equals(fileBytes)).toBe(true);
  }, 240_000);
});

describe('what the copy reads from the schema', () => {
  it('every tenant table is copied or excluded with a reason; a new tenant table is copied without a hand list', async () => {
    const tenant = (
      await t.db.query<{ table_name: string }>(
        `SELECT c.table_name FROM information_schema.columns c
           JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
          WHERE c.table_schema = 'public' AND c.column_name = 'environment_id' AND t.table_type = 'BASE TABLE'`,
      )
    ).map((r) => r.table_name);
    const catalog = await readEnvironmentCatalog(t.service.database.prisma);
    const covered = [...catalog.tables.map((x) => x.name), ...catalog.excluded.map((x) => x.name)].sort();
    expect(covered).toEqual([...tenant].sort());
    for (const e of catalog.excluded) expect(e.reason.length).toBeGreaterThan(10);

    // parents first: every foreign key's target comes before the table
    const order = new Map(catalog.tables.map((x, i) => [x.name, i]));
    const fks = await t.db.query<{ t: string; target: string }>(
      `SELECT conrelid::regclass::text AS t, confrelid::regclass::text AS target FROM pg_constraint
        WHERE contype = 'f' AND connamespace = 'public'::regnamespace`,
    );
    for (const fk of fks) {
      if (!order.has(fk.t) || fk.t === fk.target) continue;
      expect(order.get(fk.target), `${fk.t} -> ${fk.target}`).toBeLessThan(order.get(fk.t) as number);
    }

    await t.db.query('CREATE TABLE zz_probe (id text PRIMARY KEY, environment_id text NOT NULL, note text)');
    try {
      const again = await readEnvironmentCatalog(t.service.database.prisma);
      expect(again.tables.map((x) => x.name)).toContain('zz_probe');
    } finally {
      await t.db.query('DROP TABLE zz_probe');
    }
  });

  it('batching bounds memory: the copy holds at most one batch of rows at a time, paged by key', async () => {
    const env = await environmentId('src');
    await t.db.query(
      `INSERT INTO organization (id, environment_id, name, updated_at)
       SELECT 'organization:' || md5('bulk' || g), $1, 'Bulk ' || g, now() FROM generate_series(1, 2000) g`,
      [env],
    );
    const orgs = (
      await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM organization WHERE environment_id = $1', [env])
    )[0]?.n as number;
    expect(orgs).toBeGreaterThan(2000);
    const batches: { table: string; rows: number }[] = [];
    const ctx: CopyContext = {
      prisma: t.service.database.prisma,
      storage: new FilesystemStorage(path.join(t.dataDir, 'files')),
      batchSize: 50,
      onBatch: (table, rows) => batches.push({ table, rows }),
    };
    const result = await copyEnvironment(ctx, { from: 'src', to: 'bulk' });
    expect(Math.max(...batches.map((b) => b.rows))).toBeLessThanOrEqual(50);
    expect(batches.filter((b) => b.table === 'organization').length).toBe(Math.ceil(orgs / 50));
    const copied = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM organization WHERE environment_id = $1', [
      result.environment.id,
    ]);
    expect(copied[0]?.n).toBe(orgs);
    await t.db.query(`DELETE FROM organization WHERE environment_id = $1 AND name LIKE 'Bulk %'`, [env]);
  }, 120_000);

  it('the progress bar redraws in place on a terminal and writes plain lines otherwise', () => {
    let clock = 0;
    const tty: string[] = [];
    const bar = progressOn({ isTTY: true, write: (s) => tty.push(s) }, () => clock);
    bar.start(100, 0);
    clock += 1000;
    bar.advance('organization', 50);
    expect(tty.join('')).toContain('\r');
    expect(tty.join('')).toMatch(/\[#{15}-{15}\] 50% 50\/100 rows/);
    const plain: string[] = [];
    const lines = progressOn({ isTTY: false, write: (s) => plain.push(s) }, () => clock);
    lines.start(100, 0);
    lines.tableDone('organization', 50);
    expect(plain.join('')).not.toContain('\r');
    expect(plain.every((l) => l.endsWith('\n'))).toBe(true);
  });
});
