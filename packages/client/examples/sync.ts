import { createBizOpsClient } from '../src/index.js';

/**
 * An integration in a few lines: list through v2 and v3, create through v2 (retried safely: the
 * client sends an Idempotency-Key), and follow every change, deletions included, from a cursor.
 *
 *   BIZOPS_BASE_URL=https://demo.example.com BIZOPS_KEY=… BIZOPS_SECRET=… npx tsx packages/client/examples/sync.ts
 */
const client = createBizOpsClient({
  baseUrl: process.env.BIZOPS_BASE_URL ?? 'https://demo.localhost:3000',
  key: process.env.BIZOPS_KEY ?? '',
  secret: process.env.BIZOPS_SECRET ?? '',
});

// where the feed stands now: the changes after it are the ones this run makes
let cursor: string | undefined;
for await (const change of client.changes()) cursor = change.cursor;

const { data: created, error } = await client.v2.POST('/crm/organization', { body: { name: `Example ${Date.now()} BV` } });
if (error || !created?.data) throw new Error(`create failed: ${JSON.stringify(error)}`);
console.log('created', created.data.id);

let v2Count = 0;
for await (const _ of client.v2Items('/crm/organization')) v2Count++;
const { data: v3Page } = await client.v3.GET('/organization.list', { params: { query: { itemsPerPage: 5 } } });
console.log(`v2 lists ${v2Count} organizations; v3 counts ${v3Page?.totalItems}`);

await client.v2.DELETE('/crm/organization/{id}', { params: { path: { id: String(created.data.id) } } });
for await (const change of client.changes(cursor)) console.log(change.cursor, change.entityType, change.change, change.entityId);
