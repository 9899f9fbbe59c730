import type { TenantSql } from '@bo/db';
import type { z } from 'zod';
import { customFieldValuesJson, customFieldViews, customFieldViewsJson, readDefinitions } from '../../customfields/index.js';
import { type AnyField, columnOf, type TargetEntity } from './fields.js';

/** first-page statement texts kept per select list (see firstPageSql) */
const KEPT_TEXTS = 2_000;
/** the column a page's count comes in, beside its rows (PageSource.count on a page of stable plan) */
const COUNT_COLUMN = 'page_count__';

/**
 * The page loader derived from an entity's declaration: the rows with every embedded
 * relation as JSON in one statement (a filtered page first reads its ids in another), and
 * beside it the custom-field definitions when the entity has custom fields, whatever the page size.
 */

/** A list page compiled by the list compiler: `ids` selects the page's ids ($1 is the environment). */
export interface PageSource {
  ids: string;
  params: unknown[];
  /** the best plan of `ids` cannot depend on its values (the entity's own order, a range in its index's order) */
  stablePlan?: boolean;
  /** a first page as `FROM <table> t … LIMIT n` (CompiledList.firstPageFrom): with a stable plan, its rows are selected straight from it */
  firstPageFrom?: string | null;
  /**
   * the page's count, read in the statement that reads the ids (`countSql` over the same parameters),
   * told to `counted` (one round trip and one statement less than a count beside the page): for a
   * page whose ids are planned for their values, and for a stable page without `firstPageFrom`
   */
  count?: { sql: string; counted: (count: number) => void };
}

export interface EntityLoader<Row> {
  byIds(reader: TenantSql, ids: readonly string[]): Promise<Row[]>;
  page(reader: TenantSql, page: PageSource): Promise<Row[]>;
  /**
   * The row `t` as a JSON object equal to JSON.stringify of what byIds answers for it ($1 the
   * environment): an event's payload made in the statement that records it, without reading the row
   */
  rowJson(): string;
  /** the select list over `t`, for benchmarks and plans */
  selectList(): string;
  /**
   * The page as one JSON text a row, made by PostgreSQL from `json` (an expression over `t`, $1 the
   * environment: EntityProjection.sql), in the page's order, through the same statements as `page`
   */
  pageJson(reader: TenantSql, page: PageSource, json: string): Promise<string[]>;
  /** one row as that JSON text with its version (`updatedAt`, where the entity has one), or null when no row of the environment has the id */
  byIdJson(reader: TenantSql, id: string, json: string): Promise<{ json: string; updatedAt: Date | null } | null>;
}

type Revive = (value: unknown) => unknown;

export function ident(name: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`unsafe identifier ${name}`);
  return `"${name}"`;
}

/** The object schema inside a nullable, an array, an optional or the first member of a union. */
export function objectShape(schema: z.ZodType): Record<string, z.ZodType> {
  let s = schema as unknown as {
    shape?: Record<string, z.ZodType>;
    unwrap?: () => z.ZodType;
    element?: z.ZodType;
    options?: z.ZodType[];
  };
  for (let i = 0; i < 8; i += 1) {
    if (s.shape) return s.shape;
    if (s.element) s = s.element as typeof s;
    else if (s.options?.[0]) s = s.options[0] as typeof s;
    else if (s.unwrap) s = s.unwrap() as typeof s;
    else break;
  }
  throw new Error('an embedded relation needs an object schema');
}

/** A timestamp inside JSON comes without a zone; the columns hold UTC. */
function reviveDate(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  return new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(v) ? v : `${v}Z`);
}

/** A timestamptz as JSON.stringify writes a Date (UTC, milliseconds, Z). */
function isoDateTime(sql: string): string {
  return `to_char((${sql}) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}

class SelectBuilder {
  private aliases = 0;
  /**
   * `asJson`: every value as JSON.stringify writes the row the loader answers (date-times as ISO
   * strings, custom fields with their definitions), for a payload PostgreSQL makes itself
   */
  constructor(
    readonly envParam: string,
    readonly asJson = false,
  ) {}

  private alias(): string {
    this.aliases += 1;
    return `e${this.aliases}`;
  }

  private tenant(alias: string): string {
    return `${alias}.environment_id = ${this.envParam}`;
  }

  /** SQL expression of a field of `entity` over `alias`, and how to revive its JSON value. */
  expression(name: string, field: AnyField, alias: string): { sql: string; revive: Revive | null } {
    switch (field.kind) {
      case 'scalar': {
        const col = `${alias}.${ident(columnOf(name, field))}`;
        if (field.type === 'decimal') return { sql: `${col}::float8`, revive: null };
        if (field.type === 'date') return { sql: `to_char(${col}, 'YYYY-MM-DD')`, revive: null };
        if (field.type === 'datetime' && this.asJson) return { sql: isoDateTime(col), revive: null };
        return { sql: col, revive: field.type === 'datetime' ? reviveDate : null };
      }
      case 'computed':
        if (field.type === 'datetime' && this.asJson) return { sql: isoDateTime(field.sql(alias)), revive: null };
        return { sql: `(${field.sql(alias)})`, revive: field.type === 'datetime' ? reviveDate : null };
      case 'ref': {
        const target = field.target();
        const ra = this.alias();
        const obj = this.object(target, objectShape(field.schema), ra);
        const fk = `${alias}.${ident(field.column)}`;
        // an empty reference runs no subquery: most references of most rows are empty, and each
        // subquery run costs about as much as reading the row
        return {
          sql: `CASE WHEN ${fk} IS NULL THEN NULL ELSE (SELECT ${obj.sql} FROM ${ident(target.table)} ${ra} WHERE ${ra}.id = ${fk} AND ${this.tenant(ra)}) END`,
          revive: obj.revive,
        };
      }
      case 'one': {
        const target = field.target();
        const ra = this.alias();
        const obj = this.object(target, objectShape(field.schema), ra);
        const extra = field.where ? ` AND ${field.where(ra)}` : '';
        return {
          sql: `(SELECT ${obj.sql} FROM ${ident(target.table)} ${ra} WHERE ${ra}.${ident(field.remote)} = ${alias}.id AND ${this.tenant(ra)}${extra} LIMIT 1)`,
          revive: obj.revive,
        };
      }
      case 'many': {
        const target = field.target();
        const ra = this.alias();
        const obj = this.object(target, objectShape(field.schema), ra);
        const order = field.orderBy ? ` ORDER BY ${field.orderBy(ra)}` : ` ORDER BY ${ra}.id`;
        const extra = field.where ? ` AND ${field.where(ra)}` : '';
        let from: string;
        if (field.through) {
          const la = this.alias();
          from = `${ident(field.through.table)} ${la} JOIN ${ident(target.table)} ${ra} ON ${ra}.id = ${la}.${ident(field.through.targetColumn)} AND ${this.tenant(ra)}
                  WHERE ${la}.${ident(field.remote)} = ${alias}.id AND ${this.tenant(la)}${extra}`;
        } else {
          from = `${ident(target.table)} ${ra} WHERE ${ra}.${ident(field.remote)} = ${alias}.id AND ${this.tenant(ra)}${extra}`;
        }
        const revive = obj.revive;
        return {
          sql: `COALESCE((SELECT json_agg(${obj.sql}${order}) FROM ${from}), '[]'::json)`,
          revive: revive ? (v) => (Array.isArray(v) ? v.map(revive) : v) : null,
        };
      }
      case 'customFields':
        if (this.asJson) return { sql: customFieldViewsJson(`${alias}.id`, field.model), revive: null };
        return { sql: customFieldValuesJson(`${alias}.id`), revive: null };
    }
  }

  /** json_build_object of the named fields of a target row. */
  object(target: TargetEntity, shape: Record<string, z.ZodType>, alias: string): { sql: string; revive: Revive | null } {
    const parts: string[] = [];
    const revivers: [string, Revive][] = [];
    for (const key of Object.keys(shape)) {
      const field = target.fields[key];
      if (!field) throw new Error(`${target.type} has no field "${key}" to embed`);
      const e = this.expression(key, field, alias);
      parts.push(`'${key}', ${e.sql}`);
      if (e.revive) revivers.push([key, e.revive]);
    }
    const revive: Revive | null = revivers.length
      ? (v) => {
          if (!v || typeof v !== 'object') return v;
          const o = v as Record<string, unknown>;
          for (const [k, r] of revivers) o[k] = r(o[k]);
          return o;
        }
      : null;
    return { sql: `json_build_object(${parts.join(', ')})`, revive };
  }
}

/**
 * A target row as the JSON object a relation of this shape embeds, read by an id expression:
 * for a computed field that shows a relation the loader cannot join itself (the projects of an
 * invoice's lines). Nested relations take the shapes their target declares, as in a page.
 */
export function embeddedRowSql(
  target: TargetEntity,
  shape: z.ZodType,
  idSql: string,
  environmentSql: string,
  alias = 'emb',
): string {
  const b = new SelectBuilder(environmentSql);
  const obj = b.object(target, objectShape(shape), alias);
  return `(SELECT ${obj.sql} FROM ${ident(target.table)} ${alias} WHERE ${alias}.id = ${idSql} AND ${alias}.environment_id = ${environmentSql})`;
}

interface Built {
  select: string;
  revivers: [string, Revive][];
  customFields: { name: string; model: string } | null;
}

export function entityLoader<Row>(entity: TargetEntity): EntityLoader<Row> {
  let built: Built | null = null;
  // built on first use: relations name their targets through thunks that resolve once every module has loaded
  const build = (): Built => {
    if (built) return built;
    const b = new SelectBuilder('$1');
    const parts: string[] = [];
    const revivers: [string, Revive][] = [];
    let customFields: Built['customFields'] = null;
    for (const [name, field] of Object.entries(entity.fields)) {
      const e = b.expression(name, field, 't');
      parts.push(`${e.sql} AS "${name}"`);
      if (e.revive) revivers.push([name, e.revive]);
      if (field.kind === 'customFields') customFields = { name, model: field.model };
    }
    built = { select: parts.join(',\n       '), revivers, customFields };
    return built;
  };

  const finish = async (reader: TenantSql, rowsPromise: Promise<Record<string, unknown>[]>): Promise<Row[]> => {
    const b = build();
    const [rows, definitions] = await Promise.all([
      rowsPromise,
      b.customFields ? readDefinitions(reader, b.customFields.model) : null,
    ]);
    const views = definitions ? customFieldViews(definitions) : null;
    for (const row of rows) {
      for (const [k, r] of b.revivers) if (k in row) row[k] = r(row[k]);
      if (b.customFields && views) {
        row[b.customFields.name] = views(row[b.customFields.name] as Record<string, string | null> | null);
      }
    }
    return rows as Row[];
  };

  const table = ident(entity.table);
  /**
   * `select` over the rows whose ids `ids` (an array expression) holds, in its order: each fetched by
   * its primary key (LATERAL … OFFSET 0 keeps the subquery from being pulled up: as a plain join, the
   * planner hash-joined a scan of the environment's whole table whenever it was small enough to look
   * cheap). `extra`: more columns after the select list.
   */
  const rowsOfIds = (select: string, ids: string, extra = ''): string =>
    `SELECT ${select}${extra}
          FROM unnest(${ids}) WITH ORDINALITY AS page(id, n)
          CROSS JOIN LATERAL (SELECT * FROM ${table} r WHERE r.id = page.id AND r.environment_id = $1 OFFSET 0) t
         ORDER BY page.n`;
  const ordered = new Map<string, string>();
  let single: string | null = null;
  const rowsInOrder = (select: string): string => {
    let sql = ordered.get(select);
    if (sql) return sql;
    sql = rowsOfIds(select, '$2::text[]');
    ordered.set(select, sql);
    return sql;
  };
  let json: string | null = null;
  const rowJson = (): string => {
    if (json) return json;
    const b = new SelectBuilder('$1', true);
    const parts = Object.entries(entity.fields).map(([name, field]) => `'${name}', ${b.expression(name, field, 't').sql}`);
    // json_build_object takes at most 100 arguments: wider rows are joined from several
    const chunks: string[] = [];
    for (let i = 0; i < parts.length; i += 50) chunks.push(`jsonb_build_object(${parts.slice(i, i + 50).join(', ')})`);
    json = chunks.join(' || ');
    return json;
  };
  // Statement texts made once and handed out as the same string each time: prepared statements are
  // named by their text (a Map of texts in @bo/db), and a text built anew per request (5–6 kB with the
  // JSON select list) was hashed and compared whole at every execution; a kept string's hash is kept.
  const jsonSelects = new Map<string, string>();
  const jsonSelect = (json: string): string => {
    let select = jsonSelects.get(json);
    if (select === undefined) {
      select = `${json} AS j`;
      jsonSelects.set(json, select);
    }
    return select;
  };
  const firstPages = new Map<string, Map<string, string>>();
  const firstPageSql = (select: string, from: string): string => {
    let byFrom = firstPages.get(select);
    if (!byFrom) {
      byFrom = new Map();
      firstPages.set(select, byFrom);
    }
    let sql = byFrom.get(from);
    if (sql === undefined) {
      sql = `SELECT ${select} ${from}`;
      // a first page's text differs by its order and limit only (literals of ours): a bound all the same
      if (byFrom.size >= KEPT_TEXTS) byFrom.clear();
      byFrom.set(from, sql);
    }
    return sql;
  };
  const byIdJsonStatements = new Map<string, string>();
  const countedPages = new Map<string, Map<string, string>>();
  const countedPageSql = (select: string, ids: string, countSql: string): string => {
    let byIds = countedPages.get(select);
    if (!byIds) {
      byIds = new Map();
      countedPages.set(select, byIds);
    }
    const key = `${ids}\u0000${countSql}`;
    let sql = byIds.get(key);
    if (sql === undefined) {
      sql = rowsOfIds(select, `ARRAY(${ids})`, `, (${countSql}) AS ${COUNT_COLUMN}`);
      // a text per filtered column and order (the values are parameters): a bound all the same
      if (byIds.size >= KEPT_TEXTS) byIds.clear();
      byIds.set(key, sql);
    }
    return sql;
  };

  /** a page's rows with `select` over `t`: the ids planned for their values, or the rows straight off the index */
  const pageRows = (reader: TenantSql, page: PageSource, select: string): Promise<Record<string, unknown>[]> => {
    if (!page.stablePlan) {
      // values a caller chose are planned for every time; planning the select list's sub-queries with
      // them cost more than a second round trip: the ids are planned for their values, and the rows
      // are read by id in that order through one prepared statement (its plan cannot depend on values)
      const ids = page.count
        ? reader
            .read<{ count: number; ids: string[] }>(
              `SELECT (${page.count.sql}) AS count, array_to_json(ARRAY(${page.ids})) AS ids`,
              page.params,
            )
            .then(([row]) => {
              // as JSON: pg parses a text[] character by character in JS, JSON.parse natively
              page.count?.counted(row?.count ?? 0);
              return row?.ids ?? [];
            })
        : reader.read<{ id: string }>(page.ids, page.params).then((rows) => rows.map((r) => r.id));
      return ids.then((list) =>
        list.length === 0 ? [] : reader.read<Record<string, unknown>>(rowsInOrder(select), [list], { stablePlan: true }),
      );
    }
    if (page.firstPageFrom) {
      // a first page: the select list straight over the page read off the index in order (the LIMIT stops
      // the scan), with no second lookup of each row by its id. Its values are hidden from the planner's estimates (see
      // CompiledList.firstPageFrom), so every execution costs the same as the generic plan, which
      // PostgreSQL keeps. A deeper page would run the select list for every row it skips: it reads ids
      return reader.read<Record<string, unknown>>(firstPageSql(select, page.firstPageFrom), page.params, { stablePlan: true });
    }
    // a deeper page: each page row is fetched by its primary key (rowsOfIds; a plain join read 10,000
    // rows for 100). The ids come as an array (ARRAY(…), run once) so that the plan's row estimate is
    // the same whatever the values (a range of 3 rows or of 3,000): PostgreSQL then keeps its generic
    // plan instead of planning the select list's sub-queries at every execution
    const count = page.count;
    if (!count) {
      return reader.read<Record<string, unknown>>(rowsOfIds(select, `ARRAY(${page.ids})`), page.params, { stablePlan: true });
    }
    // the count as a column of every row (an InitPlan, run once): one statement for page and count.
    // A page with no row carries none, and its count is read alone (a prefix nothing starts with)
    return reader
      .read<Record<string, unknown>>(countedPageSql(select, page.ids, count.sql), page.params, { stablePlan: true })
      .then(async (rows) => {
        const first = rows[0];
        if (!first) {
          const [row] = await reader.read<{ count: number }>(count.sql, page.params, { stablePlan: true });
          count.counted(row?.count ?? 0);
          return rows;
        }
        count.counted(first[COUNT_COLUMN] as number);
        // the last key of each row: deleting it undoes its addition, the rows keep their shape
        for (const row of rows) delete row[COUNT_COLUMN];
        return rows;
      });
  };

  return {
    rowJson,
    selectList: () => build().select,
    byIds(reader, ids) {
      if (ids.length === 0) return Promise.resolve([]);
      // rows by primary key: one plan serves every environment and every set of ids. One id (a
      // write's read-back, a GET) is compared as a scalar: against `= ANY($2)` the generic plan
      // guesses several rows where a custom plan sees one, so PostgreSQL never kept the generic plan
      // and planned the select list's sub-queries at every bind, most of a create's read-back
      if (ids.length === 1) {
        single ??= `SELECT ${build().select} FROM ${table} t WHERE t.environment_id = $1 AND t.id = $2`;
        return finish(reader, reader.read<Record<string, unknown>>(single, [ids[0]], { stablePlan: true }));
      }
      const sql = `SELECT ${build().select} FROM ${table} t WHERE t.environment_id = $1 AND t.id = ANY($2::text[])`;
      return finish(reader, reader.read<Record<string, unknown>>(sql, [ids], { stablePlan: true }));
    },
    page(reader, page) {
      return finish(reader, pageRows(reader, page, build().select));
    },
    async pageJson(reader, page, json) {
      const rows = await pageRows(reader, page, jsonSelect(json));
      return rows.map((r) => r.j as string);
    },
    async byIdJson(reader, id, json) {
      let sql = byIdJsonStatements.get(json);
      if (sql === undefined) {
        const version = entity.fields.updatedAt;
        const updatedAt =
          version?.kind === 'scalar' && version.type === 'datetime'
            ? `t.${ident(columnOf('updatedAt', version))}`
            : 'NULL::timestamptz';
        sql = `SELECT ${json} AS j, ${updatedAt} AS u FROM ${table} t WHERE t.environment_id = $1 AND t.id = $2`;
        byIdJsonStatements.set(json, sql);
      }
      const rows = await reader.read<{ j: string; u: Date | null }>(sql, [id], { stablePlan: true });
      const row = rows[0];
      return row ? { json: row.j, updatedAt: row.u } : null;
    },
  };
}
