import type { ReadOptions, TenantReader } from '@bo/db';
import { type AnyEntity, declaredEntities, declaredEntityCount, fieldsOf } from './define-entity.js';
import { columnOf } from './fields.js';

/**
 * Every id column a write may set, declared (issue 28, section 3): a column named `*_id` of a table
 * of an environment is either a reference to a row of another table of that environment, checked
 * by `assertReferences` whenever a write takes it from its input, or set by the system itself (the
 * parent row being written, the caller, a row the same write made), never from an input.
 *
 * Most are read off the entity declarations: a `ref` field's column, a scalar that declares
 * `references`, a link table's column of a `many` through it, and the column of a `one` or `many`
 * relation pointing back at its parent. The rest, of tables no entity declares in full, are listed
 * below with where they are checked or why no input sets them. `assertDeclaredColumns` refuses a
 * write of any other `*_id` column (a programming error, caught by the tests): a reference a
 * declaration forgot cannot be written unchecked. `packages/domain/test/references-declared.test.ts`
 * holds this catalog against every `*_id` column of the database schema.
 */
export type ColumnRole =
  | { kind: 'reference'; target: string; declaredBy: string }
  | { kind: 'system'; why: string; declaredBy: string };

/** References of tables no entity declares in full: the target table, and where the write checks it. */
const LISTED_REFERENCES: Record<string, [target: string, checkedBy: string]> = {
  'api_token.user_id': ['user_account', 'auth/settings-tokens, admin/create-token: the user is looked up in the environment'],
  'custom_field.model_id': ['custom_field_model', 'customfields: the model is looked up by its key in the environment'],
  'custom_field_value.custom_field_id': ['custom_field', 'customfields: values name definitions read for the write'],
  'invoice_draft_request_project.project_id': ['project', 'invoices/draft-request: assertReferences on projectIds'],
};

/** Columns no input sets (why), or whose id names a row of one of several tables (how the write checks it). */
const SYSTEM_SET: Record<string, string> = {
  'advance_service_configuration.default_service_id':
    'seeded with the environment (services/reference-data.seed.ts), no input writes it',
  'advance_service_configuration.vat_class_id': 'seeded with the environment, no input writes it',
  'advance_service_configuration.revenue_group_id': 'seeded with the environment, no input writes it',
  'event.entity_id': 'the row whose change the event records (of any type)',
  'event.request_id':
    'the X-Request-Id of the HTTP request that made the change (no row: a correlation id for logs and deliveries)',
  'idempotency_key.token_id': 'the caller’s token',
  'custom_field_value.entity_id': 'the row the values belong to, being written',
  'document.upload_id': 'the upload the same request stored',
  'document.created_by_id': 'the caller',
  'invoice.draft_request_id': 'the draft request that made the invoice',
  'invoice.credited_invoice_id': 'the invoice a credit command credits (locked by id first)',
  'invoice_line.source_id': 'the booking an invoice draft invoiced (hours, expense, mileage, installment)',
  'invoice_draft_request_project.request_id': 'the draft request being written',
  'invoice_draft_request_project.invoice_id': 'the invoice the draft request made',
  'quote_line.quote_id': 'the quote being written',
  'quote_email.quote_id': 'the quote being sent (locked by id first)',
  'web_session.user_id': 'the user who signed in',
  'login_link.user_id': 'the user the link signs in, found by e-mail address',
  'storage_asset.owner_id': 'the row the file belongs to (of any type), being written',
  'storage_asset.created_by_id': 'the caller',
  'chunked_upload.user_id': 'the caller',
  'chunked_upload.upload_queue_id': 'not a reference: the client’s own name of its upload queue',
  'webhook_delivery.subscription_id': 'the subscription the delivery is for',
  'webhook_delivery.event_id': 'the event delivered',
  'webhook_attempt.delivery_id': 'the delivery attempted',
  'timeline_attachment.document_id': 'the document the same write stored',
  'timesheet_row.item_type_id':
    'an hour type or a cost type, as the row’s type says: checked as one its service carries, in this environment (createTimesheetRow)',
  'hour_approval.actor_id': 'the caller, who made the transition',
  'timeline_attachment.message_id': 'the message being written',
};

/** The role each id column of each table plays, read off the declarations: table → column → role. */
function rolesOf(entities: readonly AnyEntity[]): Map<string, Map<string, ColumnRole>> {
  const roles = new Map<string, Map<string, ColumnRole>>();
  const set = (table: string, column: string, role: ColumnRole) => {
    let columns = roles.get(table);
    if (!columns) {
      columns = new Map();
      roles.set(table, columns);
    }
    // a reference declared anywhere wins over a parent column seen from elsewhere
    const known = columns.get(column);
    if (!known || (known.kind === 'system' && role.kind === 'reference')) columns.set(column, role);
  };
  for (const entity of entities) {
    for (const [name, field] of fieldsOf(entity)) {
      const by = `${entity.type}.${name}`;
      if (field.kind === 'ref') {
        set(entity.table, field.column, { kind: 'reference', target: field.target().table, declaredBy: by });
      } else if (field.kind === 'scalar' && field.references) {
        set(entity.table, columnOf(name, field), { kind: 'reference', target: field.references().table, declaredBy: by });
      } else if (field.kind === 'one' || field.kind === 'many') {
        const child = field.kind === 'many' && field.through ? field.through.table : field.target().table;
        set(child, field.remote, { kind: 'system', why: `the ${entity.type} the row belongs to`, declaredBy: by });
        if (field.kind === 'many' && field.through) {
          set(field.through.table, field.through.targetColumn, {
            kind: 'reference',
            target: field.target().table,
            declaredBy: by,
          });
        }
      }
    }
  }
  for (const [at, [target, checkedBy]] of Object.entries(LISTED_REFERENCES)) {
    const [table, column] = at.split('.') as [string, string];
    set(table, column, { kind: 'reference', target, declaredBy: checkedBy });
  }
  for (const [at, why] of Object.entries(SYSTEM_SET)) {
    const [table, column] = at.split('.') as [string, string];
    set(table, column, { kind: 'system', why, declaredBy: 'reference-columns.ts' });
  }
  return roles;
}

let catalog: { count: number; roles: Map<string, Map<string, ColumnRole>> } | undefined;

/** The catalog of id columns (built when first asked, after the router has declared every entity). */
export function referenceColumns(): ReadonlyMap<string, ReadonlyMap<string, ColumnRole>> {
  const count = declaredEntityCount();
  if (!catalog || catalog.count !== count) catalog = { count, roles: rolesOf(declaredEntities()) };
  return catalog.roles;
}

/** A column that holds the id of another row: `*_id`, but for the environment's own. */
export function isIdColumn(column: string): boolean {
  return column.endsWith('_id') && column !== 'environment_id';
}

/**
 * Refuses a write of an id column the catalog does not declare (a programming error: the tests
 * catch it). Every insert and update of the write path passes here (`withDeclaredColumns`,
 * `insertRows`).
 */
export function assertDeclaredColumns(table: string, columns: Iterable<string>): void {
  const declared = referenceColumns().get(table);
  for (const column of columns) {
    if (isIdColumn(column) && !declared?.has(column)) {
      throw new Error(
        `${table}.${column} is not a declared reference: declare it on its entity (a ref, or references on the scalar) or in reference-columns.ts`,
      );
    }
  }
}

const INSERT = /INSERT\s+INTO\s+"?([a-z_][a-z0-9_]*)"?\s*\(([^)]*)\)/gi;
/** Statements already seen to name declared id columns only, or none (the texts are few: built from constants). */
const checkedStatements = new Set<string>();

/** The columns every `INSERT INTO <table> (<columns>)` of a raw statement names, held to the catalog. */
export function assertDeclaredInsert(statement: string): void {
  if (checkedStatements.has(statement)) return;
  // every text is remembered, an INSERT's or not: the texts are few, and a regular expression over
  // a long SELECT on every statement of every write cost more than the lookup
  if (/INSERT\s+INTO/i.test(statement)) {
    for (const [, table, columns] of statement.matchAll(INSERT)) {
      assertDeclaredColumns(
        table as string,
        (columns as string).split(',').map((c) => c.trim().replace(/^"|"$/g, '')),
      );
    }
  }
  if (checkedStatements.size > 5_000) checkedStatements.clear();
  checkedStatements.add(statement);
}

/**
 * The write's tenant reader, refusing an undeclared id column in every insert and update, and in
 * the column list of every raw `INSERT` it sends (a raw `UPDATE … SET` is not parsed: its
 * expressions name other tables' columns too).
 */
export function withDeclaredColumns(sql: TenantReader): TenantReader {
  // a copy, not Object.create(sql): a per-write object used as a prototype is re-shaped by V8
  // into prototype mode on every write, which cost more than the check itself
  return {
    ...sql,
    queue: (statement, params, options) => {
      assertDeclaredInsert(statement);
      return sql.queue(statement, params, options);
    },
    read: <T>(statement: string, params?: readonly unknown[], options?: ReadOptions) => {
      assertDeclaredInsert(statement);
      return sql.read<T>(statement, params, options);
    },
    write: <T>(statement: string, params?: readonly unknown[], options?: ReadOptions) => {
      assertDeclaredInsert(statement);
      return sql.write<T>(statement, params, options);
    },
    insert: (table, columns) => {
      assertDeclaredColumns(table, definedKeys(columns));
      return sql.insert(table, columns);
    },
    update: (table, id, columns) => {
      assertDeclaredColumns(table, definedKeys(columns));
      return sql.update(table, id, columns);
    },
  };
}

const definedKeys = (columns: Readonly<Record<string, unknown>>): string[] =>
  Object.keys(columns).filter((k) => columns[k] !== undefined);
