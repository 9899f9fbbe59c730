import { startStatementLog, transactionsOf } from '../../tests/support/pg-statement-log.js';
import { serve } from '../support/service.js';
import { call, createBenchDatabase, createToken } from '../support/setup.js';

/**
 * Lists the statements the service sends to PostgreSQL for one v2 create, as seen on the
 * wire: `create-statements.ts [path] [json-body]` (default: an organization with an
 * e-mail, a relation number, a visiting address and one custom-field value).
 */
const resource = process.argv[2] ?? '/api/v2/crm/organization';
const db = await createBenchDatabase();
const log = await startStatementLog(db.url);
const token = await createToken(db.url, 'bench');
const service = await serve(log.url, db.dataDir);
const headers = { 'authentication-key': token.key, 'authentication-secret': token.secret };
const host = 'bench.localhost';
const field = await call(service.port, host, headers, 'POST', '/api/v2/crm/organizationcustomfields', {
  name: 'tier',
  label: 'Tier',
  type: 'text',
});
if (field.status !== 200) throw new Error(`custom field: ${JSON.stringify(field.body)}`);
const body = process.argv[3]
  ? (JSON.parse(process.argv[3]) as unknown)
  : (n: number) => ({
      name: `Statement Count ${n} BV`,
      relation_number: `SC-${n}`,
      email: `info${n}@example.com`,
      visiting_address: { line_1: 'Main 1', postal_code: '3511 AA', locality: 'Utrecht', country_code: 'NL' },
      custom_fields: [{ name: 'tier', value: 'gold' }],
    });
const bodyOf = (n: number) => (typeof body === 'function' ? (body as (n: number) => unknown)(n) : body);
// warm up: the first request of a process fills caches that later ones reuse
await call(service.port, host, headers, 'POST', resource, bodyOf(0));
await new Promise((r) => setTimeout(r, 200));
log.clear();
const answer = await call(service.port, host, headers, 'POST', resource, bodyOf(1));
await new Promise((r) => setTimeout(r, 200));
const statements = [...log.statements];
console.log(`POST ${resource} → ${answer.status}: ${statements.length} statements`);
for (const s of statements) console.log(`  [conn ${s.connection}] ${s.sql.replace(/\s+/g, ' ').slice(0, 240)}`);
for (const tx of transactionsOf(statements)) console.log(`a transaction of ${tx.length} statements (BEGIN and COMMIT included)`);
await service.stop();
await log.close();
await db.drop();
process.exit(0);
