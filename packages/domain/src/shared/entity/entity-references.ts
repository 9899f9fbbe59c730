import { GLOBAL_TABLES, tableIdent, type TenantSql } from '@bo/db';
import { ValidationError, type Violation } from '../errors.js';
import { type AnyEntity, fieldsOf } from './define-entity.js';
import type { TargetEntity } from './fields.js';

export interface ReferenceCheck {
  /** domain path of the id in the input, e.g. `relationType.id` */
  path: string;
  /** the entity the id must be a row of */
  target: TargetEntity;
  id: string | null | undefined;
}

const idOf = (v: unknown): string | null | undefined => {
  if (v === null || v === undefined) return v as null | undefined;
  if (typeof v === 'string') return v;
  if (typeof v === 'object' && typeof (v as { id?: unknown }).id === 'string') return (v as { id: string }).id;
  return undefined;
};

/**
 * The references of a write, read off the entity's declaration: a to-one field given
 * as `{id}` (or its `<name>Id`), and a to-many through a link table given as `[{id}]`.
 */
export function declaredReferences(entity: AnyEntity, input: unknown): ReferenceCheck[] {
  if (!input || typeof input !== 'object') return [];
  const data = input as Record<string, unknown>;
  const checks: ReferenceCheck[] = [];
  for (const [name, field] of fieldsOf(entity)) {
    if (field.kind === 'ref' && field.writable) {
      if (name in data) checks.push({ path: `${name}.id`, target: field.target(), id: idOf(data[name]) });
      const key = `${name}Id`;
      if (key in data) checks.push({ path: key, target: field.target(), id: idOf(data[key]) });
    }
    if (field.kind === 'scalar' && field.references && field.writable && name in data) {
      checks.push({ path: name, target: field.references(), id: idOf(data[name]) });
    }
    if (field.kind === 'many' && field.through && field.writable && Array.isArray(data[name])) {
      (data[name] as unknown[]).forEach((v, n) => {
        checks.push({ path: `${name}.${n}.id`, target: field.target(), id: idOf(v) });
      });
    }
  }
  return checks;
}

/**
 * Every id a write refers to must be a row of the named entity in the caller's
 * environment: one statement for all tables, every missing reference reported together.
 * This is the one place references are checked; writes outside the generic
 * create and update (commands) call it too.
 */
export async function assertReferences(sql: TenantSql, checks: ReferenceCheck[]): Promise<void> {
  const byTable = new Map<string, ReferenceCheck[]>();
  for (const c of checks) {
    if (c.id === null || c.id === undefined) continue;
    const list = byTable.get(c.target.table) ?? [];
    list.push(c);
    byTable.set(c.target.table, list);
  }
  if (byTable.size === 0) return;
  // on a cluster other than the first, ids of global rows (users) are looked up on the first, at the
  // same time as the others (sql.global exists only there: on one cluster, one statement as always)
  const global = sql.global;
  const [here, there] = global
    ? [[...byTable].filter(([table]) => !GLOBAL_TABLES.has(table)), [...byTable].filter(([table]) => GLOBAL_TABLES.has(table))]
    : [[...byTable], []];
  const found = (
    await Promise.all([existing(sql, here), ...(global && there.length > 0 ? [existing(global, there)] : [])])
  ).flat();
  const present = new Set(found.map((r) => `${r.table}\u0000${r.id}`));
  const violations: Violation[] = [];
  // an id named twice under one path (a declaration and a use case checking it both) is reported once
  const reported = new Set<string>();
  for (const [table, list] of byTable) {
    for (const c of list) {
      const key = `${c.path}\u0000${c.id}`;
      if (!present.has(`${table}\u0000${c.id}`) && !reported.has(key)) {
        reported.add(key);
        violations.push({
          path: c.path,
          message: `no such record: ${c.id} (a ${c.target.type} of this environment)`,
          code: 'not_found',
        });
      }
    }
  }
  if (violations.length) throw new ValidationError(violations);
}

/** which of the ids of each table are rows of the environment: one statement for all tables */
async function existing(sql: TenantSql, tables: [string, ReferenceCheck[]][]): Promise<{ table: string; id: string }[]> {
  if (tables.length === 0) return [];
  // one branch per table ($1 is the environment, bound by the reader): the table's name and the ids found
  const branches: string[] = [];
  const params: unknown[] = [];
  for (const [table, list] of tables) {
    params.push(table, [...new Set(list.map((c) => c.id as string))]);
    branches.push(
      `SELECT $${params.length}::text AS "table", id FROM ${tableIdent(table)} WHERE environment_id = $1 AND id = ANY($${params.length + 1}::text[])`,
    );
  }
  return sql.read<{ table: string; id: string }>(branches.join('\nUNION ALL\n'), params);
}

export function assertEntityReferences(
  sql: TenantSql,
  entity: AnyEntity,
  input: unknown,
  extra: ReferenceCheck[],
): Promise<void> {
  return assertReferences(sql, [...declaredReferences(entity, input), ...extra]);
}
