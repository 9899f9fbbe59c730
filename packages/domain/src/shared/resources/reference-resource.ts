import type { SortKey, SqlModel } from '@bo/db';
import type { ModuleName } from '../rights.js';
import type { Db, ResourceDefinition } from './definition.js';

/**
 * A read-only v2 resource over reference data (countries, genders, relation
 * types, …): list and get with the whole query language, no writes. Both
 * versions show the same snake_case shape; v3 has no endpoint for these yet.
 */
export function referenceResource<TRow extends { id: string }>(opts: {
  name: string;
  entityType: string;
  module: ModuleName;
  sql: SqlModel;
  defaultSort: SortKey[];
  load: (db: Db, ids: string[], environmentId: string) => Promise<TRow[]>;
  view: (row: TRow) => Record<string, unknown>;
}): ResourceDefinition<TRow> {
  return {
    name: opts.name,
    entityType: opts.entityType,
    module: opts.module,
    sql: opts.sql,
    defaultSort: opts.defaultSort,
    load: opts.load,
    views: { v2: opts.view, v3: opts.view },
    remove: false,
  };
}
