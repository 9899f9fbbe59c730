import type { Comparison, Condition, ListQuery, SortKey } from './list-query.js';
import { isComparison } from './list-query.js';

/**
 * Compiles a ListQuery against a declared SQL model into one parameterised
 * query (plus one for the count). Nested paths become EXISTS sub-queries so
 * PostgreSQL can plan them as semi-joins on indexes; nothing is filtered in memory.
 */

export type FieldType = 'string' | 'id' | 'number' | 'integer' | 'boolean' | 'datetime' | 'date';

export interface SqlField {
  column: string;
  type: FieldType;
  /** a value computed over the row (aliased by the argument) instead of a column */
  expression?: (alias: string) => string;
  /** false when the field may not be used in sort */
  sortable?: boolean;
}

/** The SQL of a field on the row aliased `alias`: its column, or its expression. */
function fieldSql(field: SqlField, alias: string): string {
  return field.expression ? `(${field.expression(alias)})` : `${alias}.${ident(field.column)}`;
}

export interface SqlRelation {
  model: () => SqlModel;
  kind: 'one' | 'many';
  /** column on this side */
  local: string;
  /** column on the related side */
  remote: string;
  /** extra condition on the related row, e.g. an address kind; receives its alias */
  where?: (alias: string) => string;
  /** the module right that guards the related rows; without it only `id` and `name` are reachable */
  module?: string;
}

/** What the caller may read: a relation into a module without the read right shows only id and name. */
export interface ListAccess {
  canRead(module: string): boolean;
}

/** Paths that stay reachable through a relation the caller has no right to read. */
const RESTRICTED_VISIBLE = new Set(['id', 'name']);

/** Builds the SQL of a custom-field condition for one row of the model. */
export type CustomFieldCompiler = (args: {
  alias: string;
  /** placeholder holding the environment id */
  environmentParam: string;
  /** placeholder holding the custom field's name */
  nameParam: string;
  /** turns the value expression into the predicate (placeholders already bound) */
  predicate: (valueExpr: string) => string;
}) => string;

export interface SqlModel {
  table: string;
  fields: Record<string, SqlField>;
  relations?: Record<string, SqlRelation>;
  customFields?: CustomFieldCompiler;
  /** false for tables without environment_id (none of the tenant tables) */
  tenant?: boolean;
}

export class ListQueryError extends Error {
  constructor(
    readonly parameter: string,
    message: string,
    /** true when the path is valid but reaches data the caller has no right to read */
    readonly forbidden = false,
  ) {
    super(message);
    this.name = 'ListQueryError';
  }
}

/**
 * How large a list query may be. Each nested path becomes a sub-query per hop and each
 * condition a predicate per row: without a bound, one request can keep a connection
 * busy for minutes. Set once at start (setListLimits); the adapters name them in their 400s.
 */
export interface ListLimits {
  /** segments of a filter, sort or select path (`a.b.c` is 3) */
  maxPathDepth: number;
  /** comparisons and and/or groups of one filter, together */
  maxConditions: number;
  maxSortKeys: number;
  /** v2 `select` paths */
  maxSelectPaths: number;
}

export const DEFAULT_LIST_LIMITS: Readonly<ListLimits> = Object.freeze({
  maxPathDepth: 5,
  maxConditions: 50,
  maxSortKeys: 5,
  maxSelectPaths: 50,
});

let currentLimits: Readonly<ListLimits> = DEFAULT_LIST_LIMITS;

export function setListLimits(limits: Partial<ListLimits>): void {
  currentLimits = Object.freeze({ ...DEFAULT_LIST_LIMITS, ...limits });
}

export function listLimits(): Readonly<ListLimits> {
  return currentLimits;
}

/** Refuses a path deeper than the limit, naming the parameter and the limit. */
export function assertPathDepth(parameter: string, path: string): void {
  const depth = path.split('.').length;
  if (depth > currentLimits.maxPathDepth) {
    throw new ListQueryError(
      parameter,
      `${parameter}: the path has ${depth} levels; at most ${currentLimits.maxPathDepth} are allowed (limit: path depth)`,
    );
  }
}

/**
 * Refuses a filter with more conditions than the limit, or paths deeper than it. It walks
 * any value without recursion, so it also guards input that has not been validated yet.
 */
export function assertConditionSize(where: unknown): void {
  const max = currentLimits.maxConditions;
  const refuse = () =>
    new ListQueryError('q', `q: the filter has more than ${max} conditions; at most ${max} are allowed (limit: conditions)`);
  const stack: unknown[] = [where];
  let comparisons = 0;
  // and/or groups count too (a little): nesting alone must not make a filter unbounded
  let nodes = 0;
  while (stack.length) {
    const node = stack.pop();
    if (!node || typeof node !== 'object') continue;
    nodes += 1;
    if (nodes > max * 4) throw refuse();
    const n = node as { and?: unknown; or?: unknown; path?: unknown };
    if (typeof n.path === 'string') {
      comparisons += 1;
      if (comparisons > max) throw refuse();
      assertPathDepth(`q[${n.path}]`, n.path);
    }
    for (const list of [n.and, n.or]) if (Array.isArray(list)) stack.push(...list);
  }
}

/** Refuses more sort keys than the limit, or sort paths deeper than it. */
export function assertSortSize(keys: readonly SortKey[]): void {
  if (keys.length > currentLimits.maxSortKeys) {
    throw new ListQueryError(
      'sort',
      `sort: ${keys.length} keys given; at most ${currentLimits.maxSortKeys} are allowed (limit: sort keys)`,
    );
  }
  for (const k of keys) assertPathDepth('sort', k.path);
}

/** Refuses more select paths than the limit, or select paths deeper than it. */
export function assertSelectSize(paths: readonly string[]): void {
  if (paths.length > currentLimits.maxSelectPaths) {
    throw new ListQueryError(
      'select',
      `select: ${paths.length} paths given; at most ${currentLimits.maxSelectPaths} are allowed (limit: select paths)`,
    );
  }
  for (const p of paths) assertPathDepth('select', p.replace(/\.$/, ''));
}

export interface CompiledList {
  /** the page's ids in order; $1 is the environment */
  pageSql: string;
  pageParams: unknown[];
  /**
   * A first page (offset 0, a LIMIT written out) as `FROM <table> t WHERE … ORDER BY … LIMIT n`, to
   * select its rows straight from, its parameters (the same as pageSql's) hidden from the planner's
   * estimates (see hiddenFromPlanner); null for any other page.
   */
  firstPageFrom: string | null;
  /**
   * the page's ORDER BY expressions over the model's table aliased `t` (with the id
   * tie-breaker, so the order is total): the order an index must serve for the page
   * to be read off it (tests/read-path.test.ts checks every entity's own order)
   */
  orderSql: string;
  countSql: string;
  countParams: unknown[];
  /**
   * a first page's `pageSql` and `countSql` with their values hidden from the planner (see
   * hiddenFromPlanner): statements whose generic plan PostgreSQL keeps; null for a deeper page.
   * Made when asked (most pages never need them).
   */
  hidden(): { pageSql: string; countSql: string } | null;
}

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6}))?)?)?(Z|[+-]\d{2}:?\d{2})?$/;

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/**
 * `YYYY-MM-DD HH:MM:SS` (time optional, 00:00:00 when missing), read as UTC; an ISO offset
 * is honoured. Every part is checked as written (no 2024-02-30, no 24:00, no offset beyond
 * ±14:00), and the instant must fall in the years 1 to 9999 in UTC too, so a value the
 * database cannot hold is refused here, in our words, never by PostgreSQL.
 */
export function parseDateTime(value: string): Date | null {
  const m = DATE_TIME.exec(value.trim());
  if (!m) return null;
  const [, y = '', mo = '', d = '', h = '00', mi = '00', s = '00', frac = '0', zone] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  if (Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return null;
  if (zone && zone !== 'Z') {
    const offset = /^[+-](\d{2}):?(\d{2})$/.exec(zone);
    if (!offset || Number(offset[1]) > 14 || Number(offset[2]) > 59 || Number(offset[1]) * 60 + Number(offset[2]) > 14 * 60) {
      return null;
    }
  }
  const iso = `${y}-${mo}-${d}T${h}:${mi}:${s}.${frac.padEnd(3, '0').slice(0, 3)}${zone ?? 'Z'}`;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return null;
  // PostgreSQL and the contract's format cover years 1 to 9999, in UTC as well
  const utcYear = date.getUTCFullYear();
  if (utcYear < 1 || utcYear > 9999) return null;
  return date;
}

/** A record's own entry: a path such as `constructor` or `__proto__` names no field. */
function own<T>(record: Record<string, T> | undefined, key: string): T | undefined {
  return record && Object.hasOwn(record, key) ? record[key] : undefined;
}

class Params {
  readonly values: unknown[] = [];
  /** each value's SQL type where it is known (see hiddenFromPlanner) */
  readonly types: (string | undefined)[] = [];
  add(v: unknown, type?: string): string {
    this.values.push(v);
    this.types.push(type);
    return `$${this.values.length}`;
  }
}

/** the SQL type a field's compared value is sent as */
const SQL_TYPES: Record<FieldType, string> = {
  string: 'text',
  id: 'text',
  number: 'numeric',
  integer: 'integer',
  boolean: 'boolean',
  datetime: 'timestamptz',
  date: 'date',
};

/**
 * The statement with each parameter read through an InitPlan, `(SELECT $n::type)`: the planner then
 * estimates every execution alike whatever the values, as it does its generic plan. A prepared page
 * planned for its values saw an empty change-tracking range, or an environment with fewer rows than
 * the LIMIT, as cheaper than its generic plan, and planned again at every execution. null when a
 * parameter's type is not known.
 */
function hiddenFromPlanner(sql: string, params: Params): string | null {
  let unknown = false;
  const out = sql.replace(/\$(\d+)(?!\d)/g, (token, n: string) => {
    const type = params.types[Number(n) - 1];
    if (!type) unknown = true;
    return `(SELECT ${token}::${type})`;
  });
  return unknown ? null : out;
}

function ident(name: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`unsafe identifier ${name}`);
  return `"${name}"`;
}

interface Leaf {
  /** positive predicate over the value expression */
  build: (valueExpr: string) => string;
  /** true when the comparison means "no related value satisfies build" (null, nin) */
  negate: boolean;
}

function coerce(field: SqlField, raw: string, parameter: string): unknown {
  switch (field.type) {
    case 'string':
    case 'id':
      return raw;
    case 'number': {
      const n = Number(raw);
      if (raw.trim() === '' || !Number.isFinite(n)) throw new ListQueryError(parameter, `${parameter}: "${raw}" is not a number`);
      if (Math.abs(n) > 1e15)
        throw new ListQueryError(parameter, `${parameter}: "${raw}" is out of range (at most 1e15 in absolute value)`);
      return n;
    }
    case 'integer': {
      if (!/^-?\d+$/.test(raw.trim())) throw new ListQueryError(parameter, `${parameter}: "${raw}" is not an integer`);
      // integer columns hold 32 bits; a larger value matches nothing, and PostgreSQL would refuse it
      if (Math.abs(Number(raw)) > 2_147_483_647) {
        throw new ListQueryError(parameter, `${parameter}: "${raw}" is out of range (at most 2147483647 in absolute value)`);
      }
      return Number(raw);
    }
    case 'boolean': {
      const v = raw.trim().toLowerCase();
      if (v === 'true' || v === '1') return true;
      if (v === 'false' || v === '0') return false;
      throw new ListQueryError(parameter, `${parameter}: "${raw}" is not a boolean (true or false)`);
    }
    case 'datetime':
    case 'date': {
      const d = parseDateTime(raw);
      if (!d) throw new ListQueryError(parameter, `${parameter}: "${raw}" is not a date-time (YYYY-MM-DD HH:MM:SS)`);
      return field.type === 'date' ? d.toISOString().slice(0, 10) : d;
    }
  }
}

/**
 * The literal of a wildcard value that is a prefix alone (`Acme*`), or null: its only `*` at the end,
 * and some character other than U+10FFFF before it (a run of that last code point has no successor).
 */
export function prefixLiteral(raw: string): string | null {
  if (raw.length < 2 || raw.indexOf('*') !== raw.length - 1) return null;
  const literal = raw.slice(0, -1);
  return /[^\u{10FFFF}]/u.test(literal) ? literal : null;
}

function likePattern(raw: string): string {
  return raw.replace(/[\\%_]/g, (c) => `\\${c}`).replace(/\*/g, '%');
}

function leafFor(field: SqlField, c: Comparison, params: Params, parameter: string): Leaf {
  const cast = field.type === 'date' ? '::date' : '';
  if (c.op === 'in' || c.op === 'nin') {
    const list = (Array.isArray(c.value) ? c.value : [c.value]).map((v) => coerce(field, v, parameter));
    if (list.length === 0) throw new ListQueryError(parameter, `${parameter}: the list is empty`);
    const p = params.add(list, `${SQL_TYPES[field.type]}[]`);
    return { build: (v) => `${v} = ANY(${p}${cast ? `${cast}[]` : ''})`, negate: c.op === 'nin' };
  }
  const raw = Array.isArray(c.value) ? (c.value[0] ?? '') : c.value;
  if (c.op === 'eq') {
    if (raw === 'null') return { build: (v) => `${v} IS NOT NULL`, negate: true };
    if (raw === '*') return { build: (v) => `${v} IS NOT NULL`, negate: false };
    if (raw.includes('*')) {
      if (field.type !== 'string' && field.type !== 'id') {
        throw new ListQueryError(parameter, `${parameter}: wildcards apply to text fields only`);
      }
      // wildcard matches are case-insensitive; exact matches are exact. lower() LIKE lower()
      // rather than ILIKE, so an index on (environment_id, lower(col) text_pattern_ops) serves prefixes
      const prefix = prefixLiteral(raw);
      if (prefix !== null) {
        // a prefix alone as the exact range of its texts (migration 20261128120000_text_prefix_successor):
        // the index serves a range whose bounds are parameters, a LIKE only once its pattern is known
        const lit = params.add(prefix, 'text');
        return {
          build: (v) => `(lower(${v}) ~>=~ lower(${lit}) AND lower(${v}) ~<~ text_prefix_successor(lower(${lit})))`,
          negate: false,
        };
      }
      const p = params.add(likePattern(raw), 'text');
      return { build: (v) => `lower(${v}) LIKE lower(${p})`, negate: false };
    }
    const p = params.add(coerce(field, raw, parameter), SQL_TYPES[field.type]);
    return { build: (v) => `${v} = ${p}${cast}`, negate: false };
  }
  if (field.type === 'boolean') throw new ListQueryError(parameter, `${parameter}: ${c.op} does not apply to a boolean`);
  const p = params.add(coerce(field, raw, parameter), SQL_TYPES[field.type]);
  const sqlOp = { ge: '>=', gt: '>', le: '<=', lt: '<' }[c.op];
  return { build: (v) => `${v} ${sqlOp} ${p}${cast}`, negate: false };
}

const NUMBER = /^-?\d+(\.\d+)?$/;

function isRange(op: Comparison['op']): boolean {
  return op === 'ge' || op === 'gt' || op === 'le' || op === 'lt';
}

class Compiler {
  private aliasCount = 0;
  constructor(
    readonly params: Params,
    readonly environmentParam: string,
    readonly access?: ListAccess,
  ) {}

  /** Refuses a path that goes through a relation into a module the caller may not read, past its id and name. */
  guard(relation: SqlRelation, rest: string[], parameter: string, path: string): void {
    if (!relation.module || !this.access || this.access.canRead(relation.module)) return;
    if (rest.length === 0 || (rest.length === 1 && RESTRICTED_VISIBLE.has(rest[0] ?? ''))) return;
    throw new ListQueryError(parameter, `${parameter}: "${path}" needs the read right of the ${relation.module} module`, true);
  }

  nextAlias(): string {
    this.aliasCount += 1;
    return `r${this.aliasCount}`;
  }

  condition(model: SqlModel, alias: string, cond: Condition): string {
    if (isComparison(cond)) return this.comparison(model, alias, cond);
    if ('and' in cond) {
      const parts = cond.and.map((c) => this.condition(model, alias, c));
      return parts.length ? `(${parts.join(' AND ')})` : 'TRUE';
    }
    const parts = cond.or.map((c) => this.condition(model, alias, c));
    return parts.length ? `(${parts.join(' OR ')})` : 'FALSE';
  }

  private comparison(model: SqlModel, alias: string, c: Comparison): string {
    const parameter = `q[${c.path}]`;
    const segments = c.path.split('.');
    if (segments.some((s) => s === '')) throw new ListQueryError(parameter, `${parameter}: not a valid path`);
    const field = segments.length === 1 ? own(model.fields, segments[0] ?? '') : undefined;
    if (field) {
      const leaf = leafFor(field, c, this.params, parameter);
      const expr = fieldSql(field, alias);
      if (!leaf.negate) return leaf.build(expr);
      if (c.op === 'eq') return `${expr} IS NULL`;
      return `(${leaf.build(expr)}) IS NOT TRUE`;
    }
    // negation (null, nin) applies once, at the outermost EXISTS: "no related value matches"
    const p = this.positive(model, alias, segments, c, parameter);
    return p.negate ? `NOT ${p.sql}` : p.sql;
  }

  private tenantClause(model: SqlModel, alias: string): string {
    return model.tenant === false ? '' : ` AND ${alias}.environment_id = ${this.environmentParam}`;
  }

  /** Same walk, but returns the positive form and whether the caller must negate it. */
  private positive(
    model: SqlModel,
    alias: string,
    segments: string[],
    c: Comparison,
    parameter: string,
  ): { sql: string; negate: boolean } {
    const [head, ...rest] = segments as [string, ...string[]];
    if ((head === 'custom_fields' || head === 'customFields') && rest.length > 0) {
      if (!model.customFields) {
        throw new ListQueryError(parameter, `${parameter}: custom-field filters are not supported on this resource`);
      }
      // values are stored as text: a range on a number compares numerically (text would put 9 after 10);
      // ISO dates and date-times compare correctly as text
      const numeric = isRange(c.op) && NUMBER.test(Array.isArray(c.value) ? (c.value[0] ?? '') : c.value);
      const leaf = leafFor({ column: 'value', type: numeric ? 'number' : 'string' }, c, this.params, parameter);
      const sql = model.customFields({
        alias,
        environmentParam: this.environmentParam,
        nameParam: this.params.add(rest.join('.')),
        predicate: numeric ? (v) => leaf.build(`(CASE WHEN ${v} ~ '^-?[0-9]+(\\.[0-9]+)?$' THEN ${v}::numeric END)`) : leaf.build,
      });
      return { sql, negate: leaf.negate };
    }
    const field = own(model.fields, head);
    if (rest.length === 0 && field) {
      const leaf = leafFor(field, c, this.params, parameter);
      return { sql: leaf.build(fieldSql(field, alias)), negate: leaf.negate };
    }
    const relation = own(model.relations, head);
    if (!relation) throw new ListQueryError(parameter, `${parameter}: unknown field "${c.path}"`);
    this.guard(relation, rest, parameter, c.path);
    const next = rest.length === 0 ? ['id'] : rest;
    const target = relation.model();
    const ra = this.nextAlias();
    const extra = relation.where ? ` AND ${relation.where(ra)}` : '';
    const inner = this.positive(target, ra, next, c, parameter);
    const join = `${ra}.${ident(relation.remote)} = ${alias}.${ident(relation.local)}${this.tenantClause(target, ra)}${extra}`;
    return { sql: `EXISTS (SELECT 1 FROM ${ident(target.table)} ${ra} WHERE ${join} AND ${inner.sql})`, negate: inner.negate };
  }

  sortExpr(model: SqlModel, alias: string, key: SortKey): string {
    const parameter = 'sort';
    const segments = key.path.split('.');
    let current = model;
    let currentAlias = alias;
    const joins: { from: string; on: string }[] = [];
    for (let i = 0; i < segments.length - 1; i += 1) {
      const rel = own(current.relations, segments[i] ?? '');
      if (!rel) throw new ListQueryError(parameter, `sort: unknown field "${key.path}"`);
      this.guard(rel, segments.slice(i + 1), parameter, key.path);
      if (rel.kind !== 'one')
        throw new ListQueryError(parameter, `sort: "${key.path}" goes through a list and cannot be sorted on`);
      const target = rel.model();
      const ra = this.nextAlias();
      const extra = rel.where ? ` AND ${rel.where(ra)}` : '';
      joins.push({
        from: `${ident(target.table)} ${ra}`,
        // scoped like every filter's join: a sort never reads another environment's row
        on: `${ra}.${ident(rel.remote)} = ${currentAlias}.${ident(rel.local)}${this.tenantClause(target, ra)}${extra}`,
      });
      current = target;
      currentAlias = ra;
    }
    const last = segments[segments.length - 1] ?? '';
    const field = own(current.fields, last);
    if (!field || field.sortable === false)
      throw new ListQueryError(parameter, `sort: unknown or unsortable field "${key.path}"`);
    const column = fieldSql(field, currentAlias);
    if (joins.length === 0) return column;
    // nested to-one sort: a scalar sub-query through the chain of relations
    const from = joins.map((j) => j.from).join(', ');
    const where = joins.map((j) => j.on).join(' AND ');
    return `(SELECT ${column} FROM ${from} WHERE ${where} LIMIT 1)`;
  }
}

/** Above it, a first page's LIMIT is a parameter like any other page's (see pageClause). */
export const LITERAL_LIMIT_UP_TO = 1000;

/**
 * LIMIT and OFFSET of a page. PostgreSQL keeps one generic plan for a prepared statement only when
 * that plan is estimated no dearer than planning for the values; a LIMIT or OFFSET that is a
 * parameter is estimated at a tenth of the table, so a prepared page with them was planned anew
 * at every execution (docs/performance.md has the figures). The first page, by far the most asked for, writes its limit as a literal (an integer
 * up to LITERAL_LIMIT_UP_TO, so at most that many statement texts per order) and its plan is kept;
 * deeper pages keep both as parameters, since an offset written out would make a statement per page.
 */
function pageClause(params: Params, query: ListQuery): string {
  if (query.offset === 0 && Number.isSafeInteger(query.limit) && query.limit >= 0 && query.limit <= LITERAL_LIMIT_UP_TO) {
    return `LIMIT ${query.limit}`;
  }
  return `LIMIT ${params.add(query.limit)} OFFSET ${params.add(query.offset)}`;
}

/** Compiles the page query (ids in order) and the count query for one environment. */
export function compileList(model: SqlModel, environmentId: string, query: ListQuery, access?: ListAccess): CompiledList {
  assertConditionSize(query.where);
  assertSortSize(query.orderBy);
  const params = new Params();
  const env = params.add(environmentId, 'text');
  const compiler = new Compiler(params, env, access);
  const alias = 't';
  const where = query.where ? compiler.condition(model, alias, query.where) : 'TRUE';
  const tenant = model.tenant === false ? 'TRUE' : `${alias}.environment_id = ${env}`;
  const whereSql = `${tenant} AND ${where}`;
  const countParams = [...params.values];

  const order = query.orderBy.map((k) => `${compiler.sortExpr(model, alias, k)} ${k.dir === 'desc' ? 'DESC' : 'ASC'}`);
  // the id tie-breaker follows the last key's direction so (env, key, id) indexes serve the whole order
  const lastDir = query.orderBy[query.orderBy.length - 1]?.dir ?? 'asc';
  if (!query.orderBy.some((k) => k.path === 'id')) order.push(`${alias}."id" ${lastDir === 'desc' ? 'DESC' : 'ASC'}`);
  const table = ident(model.table);
  const page = pageClause(params, query);
  const from = `FROM ${table} ${alias} WHERE ${whereSql} ORDER BY ${order.join(', ')} ${page}`;
  const pageSql = `SELECT ${alias}."id" AS id ${from}`;
  const countSql = `SELECT count(*)::int AS count FROM ${table} ${alias} WHERE ${whereSql}`;
  const first = !page.includes('OFFSET');
  return {
    pageSql,
    pageParams: params.values,
    firstPageFrom: first ? hiddenFromPlanner(from, params) : null,
    orderSql: order.join(', '),
    countSql,
    countParams,
    hidden: () => {
      const hiddenPage = first ? hiddenFromPlanner(pageSql, params) : null;
      const hiddenCount = first ? hiddenFromPlanner(countSql, params) : null;
      return hiddenPage !== null && hiddenCount !== null ? { pageSql: hiddenPage, countSql: hiddenCount } : null;
    },
  };
}

/** Checks that every path of a sort resolves, without building SQL for the caller. */
export function assertSortable(model: SqlModel, keys: SortKey[]): void {
  const compiler = new Compiler(new Params(), '$1');
  for (const k of keys) compiler.sortExpr(model, 't', k);
}
