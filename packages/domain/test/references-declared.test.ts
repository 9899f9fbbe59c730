import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TenantReader } from '@bo/db';
import { describe, expect, it } from 'vitest';
import { appRouter } from '../src/router.js';
import { declaredEntities, fieldsOf } from '../src/shared/entity/define-entity.js';
import { columnOf } from '../src/shared/entity/fields.js';
import {
  assertDeclaredColumns,
  isIdColumn,
  referenceColumns,
  withDeclaredColumns,
} from '../src/shared/entity/reference-columns.js';
import { insertRows } from '../src/shared/sql-writes.js';

/**
 * Issue 28, section 3: every reference of every write is declared, and nothing undeclared can be
 * written. The catalog of id columns (reference-columns.ts, mostly read off the entity
 * declarations) is held against the database schema: every `*_id` column of every table of an
 * environment is a declared reference to a table of an environment, or a column only the system
 * sets, with the reason. A write of any other id column is refused before it is sent.
 */
void appRouter; // loading the router declares every entity

const SCHEMA_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../db/prisma/schema');

/** Every table of an environment (it has environment_id) with its `*_id` columns, from the Prisma schema. */
function tenantIdColumns(): Map<string, string[]> {
  const tables = new Map<string, string[]>();
  for (const file of readdirSync(SCHEMA_DIR).filter((f) => f.endsWith('.prisma'))) {
    const text = readFileSync(path.join(SCHEMA_DIR, file), 'utf8');
    for (const model of text.matchAll(/^model (\w+) \{([\s\S]*?)^\}/gm)) {
      const body = model[2] ?? '';
      if (!/@map\("environment_id"\)/.test(body)) continue;
      const table = /@@map\("(\w+)"\)/.exec(body)?.[1] ?? (model[1] as string);
      const columns = [...body.matchAll(/@map\("(\w+)"\)/g)].map((m) => m[1] as string).filter(isIdColumn);
      tables.set(table, columns);
    }
  }
  return tables;
}

describe('every reference of every write is declared', () => {
  const schema = tenantIdColumns();

  it('the schema walk finds the tables of an environment and their id columns', () => {
    expect(schema.size).toBeGreaterThan(100);
    expect(schema.get('invoice')).toContain('my_organization_profile_id');
    expect(schema.get('sale_service')).toContain('vat_class_id');
  });

  it('every *_id column of every table of an environment is a declared reference, or one only the system sets', () => {
    const catalog = referenceColumns();
    const undeclared = [...schema].flatMap(([table, columns]) =>
      columns.filter((c) => !catalog.get(table)?.has(c)).map((c) => `${table}.${c}`),
    );
    expect(undeclared, 'declare each: a ref or `references` on its entity, or in reference-columns.ts').toEqual([]);
  });

  it('the two references found undeclared are declared references to their tables', () => {
    const catalog = referenceColumns();
    expect(catalog.get('invoice')?.get('my_organization_profile_id')).toMatchObject({
      kind: 'reference',
      target: 'my_organization_profile',
    });
    expect(catalog.get('sale_service')?.get('vat_class_id')).toMatchObject({ kind: 'reference', target: 'vat_class' });
  });

  it('every declared reference names a column of the schema and a table of an environment (no stale entry)', () => {
    const stale: string[] = [];
    for (const [table, columns] of referenceColumns()) {
      for (const [column, role] of columns) {
        if (!isIdColumn(column)) continue;
        // a view (a table no Prisma model maps) is read only: nothing to hold against the schema
        if (schema.has(table) && !schema.get(table)?.includes(column)) stale.push(`${table}.${column}: no such id column`);
        if (role.kind === 'reference' && !schema.has(role.target))
          stale.push(`${table}.${column}: ${role.target} is no table of an environment`);
      }
    }
    expect(stale).toEqual([]);
  });

  it('every writable id field of every entity declares the entity it references (a reference, checked on every write)', () => {
    const catalog = referenceColumns();
    const plain: string[] = [];
    for (const entity of declaredEntities()) {
      for (const [name, field] of fieldsOf(entity)) {
        if (field.kind !== 'scalar' || !field.writable || field.references) continue;
        const column = columnOf(name, field);
        if (!isIdColumn(column) || !schema.get(entity.table)?.includes(column)) continue;
        if (catalog.get(entity.table)?.get(column)?.kind === 'system') continue;
        plain.push(`${entity.type}.${name} (${entity.table}.${column})`);
      }
    }
    expect(plain, 'give each `references: () => <target entity>`').toEqual([]);
  });
});

describe('nothing undeclared can be written', () => {
  const refused = /not a declared reference/;
  const reader = () => {
    const sent: string[] = [];
    const sql = {
      insert: async (table: string) => void sent.push(`insert ${table}`),
      update: async (table: string) => void sent.push(`update ${table}`),
      queue: async (statement: string) => void sent.push(statement),
    } as unknown as TenantReader;
    return { sql, sent };
  };

  it('an insert or update of an undeclared id column is refused before it is sent', async () => {
    const { sql, sent } = reader();
    const checked = withDeclaredColumns(sql);
    await expect(async () => checked.insert('organization', { id: 'o', name: 'x', smuggled_id: 'x' })).rejects.toThrow(refused);
    await expect(async () => checked.update('sale_service', 's', { vat_classification_id: 'x' })).rejects.toThrow(refused);
    expect(sent).toEqual([]);
  });

  it('a raw INSERT through the write’s reader is held to the same catalog, by its column list', async () => {
    const { sql, sent } = reader();
    const checked = withDeclaredColumns(sql);
    await expect(async () =>
      checked.queue('INSERT INTO sale_service (environment_id, id, sale_id, smuggled_id) VALUES ($1, $2, $3, $4)', []),
    ).rejects.toThrow(refused);
    expect(sent).toEqual([]);
    const declared = 'INSERT INTO sale_service (environment_id, id, sale_id, vat_class_id) VALUES ($1, $2, $3, $4)';
    await checked.queue(declared, []);
    expect(sent).toEqual([declared]);
  });

  it('rows inserted many at once are held to the same catalog', async () => {
    const { sql, sent } = reader();
    await expect(insertRows(sql, 'invoice_line', ['id', 'invoice_id', 'smuggled_id'], [['l', 'i', 'x']])).rejects.toThrow(
      refused,
    );
    expect(sent).toEqual([]);
  });

  it('declared references and the system’s own columns are written, and other columns are not id columns', async () => {
    const { sql, sent } = reader();
    const checked = withDeclaredColumns(sql);
    await checked.insert('invoice', { id: 'i', my_organization_profile_id: 'p', draft_request_id: 'd', environment_id: 'e' });
    await checked.update('sale_service', 's', { vat_class_id: 'v', name: 'n', smuggled_id: undefined });
    expect(sent).toEqual(['insert invoice', 'update sale_service']);
    expect(() => assertDeclaredColumns('organization', ['name', 'relation_type_id'])).not.toThrow();
  });
});
