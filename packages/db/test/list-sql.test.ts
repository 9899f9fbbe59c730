// The list compiler (src/list-sql.ts over the model of src/list-query.ts) on small models built
// here: for each operator, wildcard, nesting, OR, custom field, sort and page, the exact SQL text
// and parameters it writes. A change to the compiler shows in these snapshots' diff.
import { describe, expect, it } from 'vitest';
import type { Condition, ListQuery } from '../src/list-query.js';
import {
  type CustomFieldCompiler,
  compileList,
  type ListAccess,
  ListQueryError,
  prefixLiteral,
  type SqlModel,
} from '../src/list-sql.js';

// the same hook the domain gives an entity with custom fields (customfields/custom-field.sql.ts)
const customFields: CustomFieldCompiler = ({ alias, environmentParam, nameParam, predicate }) =>
  `EXISTS (SELECT 1 FROM "custom_field_value" cv JOIN "custom_field" cf ON cf.id = cv.custom_field_id` +
  ` WHERE cv.entity_id = ${alias}."id" AND cv.environment_id = ${environmentParam}` +
  ` AND cf.environment_id = ${environmentParam} AND cf.model_key = 'organization' AND cf.name = ${nameParam}` +
  ` AND ${predicate('cv.value')})`;

// a global table (no environment_id), reached only through a relation here
const region: SqlModel = {
  table: 'region',
  tenant: false,
  fields: { id: { column: 'id', type: 'id' }, name: { column: 'name', type: 'string' } },
};

const country: SqlModel = {
  table: 'country',
  fields: { id: { column: 'id', type: 'id' }, name: { column: 'name', type: 'string' } },
  relations: { region: { model: () => region, kind: 'one', local: 'region_id', remote: 'id' } },
};

const address: SqlModel = {
  table: 'address',
  fields: { id: { column: 'id', type: 'id' }, city: { column: 'city', type: 'string' } },
  relations: { country: { model: () => country, kind: 'one', local: 'country_id', remote: 'id' } },
};

const user: SqlModel = {
  table: 'user',
  fields: {
    id: { column: 'id', type: 'id' },
    name: { column: 'name', type: 'string' },
    email: { column: 'email', type: 'string' },
  },
};

const organization: SqlModel = {
  table: 'organization',
  fields: {
    id: { column: 'id', type: 'id' },
    name: { column: 'name', type: 'string' },
    employees: { column: 'employee_count', type: 'integer' },
    revenue: { column: 'revenue', type: 'number' },
    archived: { column: 'archived', type: 'boolean' },
    updatedAt: { column: 'updated_at', type: 'datetime' },
    founded: { column: 'founded_on', type: 'date' },
    notes: { column: 'notes', type: 'string', sortable: false },
    nameLength: { column: 'nameLength', type: 'integer', expression: (a) => `length(${a}."name")` },
  },
  relations: {
    country: { model: () => country, kind: 'one', local: 'country_id', remote: 'id' },
    // a to-many relation with a condition on the related row
    visitingAddresses: {
      model: () => address,
      kind: 'many',
      local: 'id',
      remote: 'organization_id',
      where: (a) => `${a}."kind" = 'visiting'`,
    },
    accountManager: { model: () => user, kind: 'one', local: 'account_manager_id', remote: 'id', module: 'hrm' },
  },
  customFields,
};

const ENV = 'env-1';

function compile(query: Partial<ListQuery>, model: SqlModel = organization, access?: ListAccess) {
  return compileList(model, ENV, { orderBy: [], offset: 0, limit: 10, count: false, ...query }, access);
}

/** the page query's text and parameters for a filter */
function filter(where: Condition, model: SqlModel = organization) {
  const c = compile({ where }, model);
  return { sql: c.pageSql, params: c.pageParams };
}

/** the message of the ListQueryError a query is refused with (it names the parameter) */
function refusal(query: Partial<ListQuery>, access?: ListAccess): string {
  try {
    compile(query, organization, access);
  } catch (err) {
    if (err instanceof ListQueryError) return err.forbidden ? `(forbidden) ${err.message}` : err.message;
    throw err;
  }
  throw new Error('the query was compiled');
}

describe('list compiler: one case per operator', () => {
  it('eq on a text field compares exactly, the value as given', () => {
    expect(filter({ path: 'name', op: 'eq', value: 'Acme' })).toMatchInlineSnapshot(`
      {
        "params": [
          "env-1",
          "Acme",
        ],
        "sql": "SELECT t."id" AS id FROM "organization" t WHERE t.environment_id = $1 AND t."name" = $2 ORDER BY t."id" ASC LIMIT 10",
      }
    `);
  });

  it('eq on an integer field coerces the value to a number', () => {
    expect(filter({ path: 'employees', op: 'eq', value: '12' })).toMatchInlineSnapshot(`
      {
        "params": [
          "env-1",
          12,
        ],
        "sql": "SELECT t."id" AS id FROM "organization" t WHERE t.environment_id = $1 AND t."employee_count" = $2 ORDER BY t."id" ASC LIMIT 10",
      }
    `);
  });

  it('eq on a boolean field reads true/false/1/0', () => {
    expect(filter({ path: 'archived', op: 'eq', value: '0' })).toMatchInlineSnapshot(`
      {
        "params": [
          "env-1",
          false,
        ],
        "sql": "SELECT t."id" AS id FROM "organization" t WHERE t.environment_id = $1 AND t."archived" = $2 ORDER BY t."id" ASC LIMIT 10",
      }
    `);
  });

  it('ge on a date-time field binds a Date (UTC)', () => {
    expect(filter({ path: 'updatedAt', op: 'ge', value: '2024-01-02 03:04:05' })).toMatchInlineSnapshot(`
      {
        "params": [
          "env-1",
          2024-01-02T03:04:05.000Z,
        ],
        "sql": "SELECT t."id" AS id FROM "organization" t WHERE t.environment_id = $1 AND t."updated_at" >= $2 ORDER BY t."id" ASC LIMIT 10",
      }
    `);
  });

  it('gt on a number field', () => {
    expect(filter({ path: 'revenue', op: 'gt', value: '1000.5' })).toMatchInlineSnapshot(`
      {
        "params": [
          "env-1",
          1000.5,
        ],
        "sql": "SELECT t."id" AS id FROM "organization" t WHERE t.environment_id = $1 AND t."revenue" > $2 ORDER BY t."id" ASC LIMIT 10",
      }
    `);
  });

  it('le on a date field casts the parameter to date', () => {
    expect(filter({ path: 'founded', op: 'le', value: '2020-02-29' })).toMatchInlineSnapshot(`
      {
        "params": [
          "env-1",
          "2020-02-29",
        ],
        "sql": "SELECT t."id" AS id FROM "organization" t WHERE t.environment_id = $1 AND t."founded_on" <= $2::date ORDER BY t."id" ASC LIMIT 10",
      }
    `);
  });

  it('lt on a computed field compares its expression', () => {
    expect(filter({ path: 'nameLength', op: 'lt', value: '5' })).toMatchInlineSnapshot(`
      {
        "params": [
          "env-1",
          5,
        ],
        "sql": "SELECT t."id" AS id FROM "organization" t WHERE t.environment_id = $1 AND (length(t."name")) < $2 ORDER BY t."id" ASC LIMIT 10",
      }
    `);
  });

  it('in binds the list as one array parameter', () => {
    expect(filter({ path: 'employees', op: 'in', value: ['1', '2', '3'] })).toMatchInlineSnapshot(`
      {
        "params": [
          "env-1",
          [
            1,
            2,
            3,
          ],
        ],
        "sql": "SELECT t."id" AS id FROM "organization" t WHERE t.environment_id = $1 AND t."employee_count" = ANY($2) ORDER BY t."id" ASC LIMIT 10",
      }
    `);
  });

  it('nin is "not in the list", a null value included (IS NOT TRUE)', () => {
    expect(filter({ path: 'name', op: 'nin', value: ['a', 'b'] })).toMatchInlineSnapshot(`
      {
        "params": [
          "env-1",
          [
            "a",
            "b",
          ],
        ],
        "sql": "SELECT t."id" AS id FROM "organization" t WHERE t.environment_id = $1 AND (t."name" = ANY($2)) IS NOT TRUE ORDER BY t."id" ASC LIMIT 10",
      }
    `);
  });

  it('in on a date field casts the array to date[]', () => {
    expect(filter({ path: 'founded', op: 'in', value: ['2020-01-01', '2021-01-01'] })).toMatchInlineSnapshot(`
      {
        "params": [
          "env-1",
          [
            "2020-01-01",
            "2021-01-01",
          ],
        ],
        "sql": "SELECT t."id" AS id FROM "organization" t WHERE t.environment_id = $1 AND t."founded_on" = ANY($2::date[]) ORDER BY t."id" ASC LIMIT 10",
      }
    `);
  });

  it('eq null is IS NULL, with no parameter', () => {
    expect(filter({ path: 'name', op: 'eq', value: 'null' })).toMatchInlineSnapshot(`
      {
        "params": [
          "env-1",
        ],
        "sql": "SELECT t."id" AS id FROM "organization" t WHERE t.environment_id = $1 AND t."name" IS NULL ORDER BY t."id" ASC LIMIT 10",
      }
    `);
  });

  it('eq * (not null) is IS NOT NULL, with no parameter', () => {
    expect(filter({ path: 'name', op: 'eq', value: '*' })).toMatchInlineSnapshot(`
      {
        "params": [
          "env-1",
        ],
        "sql": "SELECT t."id" AS id FROM "organization" t WHERE t.environment_id = $1 AND t."name" IS NOT NULL ORDER BY t."id" ASC LIMIT 10",
      }
    `);
  });
  it('a range on a boolean, an empty list and a value not of the field type are refused', () => {
    expect(refusal({ where: { path: 'archived', op: 'gt', value: 'true' } })).toMatchInlineSnapshot(
      `"q[archived]: gt does not apply to a boolean"`,
    );
    expect(refusal({ where: { path: 'name', op: 'in', value: [] } })).toMatchInlineSnapshot(`"q[name]: the list is empty"`);
    expect(refusal({ where: { path: 'employees', op: 'eq', value: '1.5' } })).toMatchInlineSnapshot(
      `"q[employees]: "1.5" is not an integer"`,
    );
  });
});

describe('list compiler: wildcards (case-insensitive LIKE, the rest escaped)', () => {
  it('a prefix alone is the range of the texts that start with it (its successor computed by PostgreSQL from the lowered prefix), not a LIKE', () => {
    expect(filter({ path: 'name', op: 'eq', value: 'Ac*' })).toMatchInlineSnapshot(`
      {
        "params": [
          "env-1",
          "Ac",
        ],
        "sql": "SELECT t."id" AS id FROM "organization" t WHERE t.environment_id = $1 AND (lower(t."name") ~>=~ lower($2) AND lower(t."name") ~<~ text_prefix_successor(lower($2))) ORDER BY t."id" ASC LIMIT 10",
      }
    `);
  });

  it('a suffix', () => {
    expect(filter({ path: 'name', op: 'eq', value: '*me' })).toMatchInlineSnapshot(`
      {
        "params": [
          "env-1",
          "%me",
        ],
        "sql": "SELECT t."id" AS id FROM "organization" t WHERE t.environment_id = $1 AND lower(t."name") LIKE lower($2) ORDER BY t."id" ASC LIMIT 10",
      }
    `);
  });

  it('an infix', () => {
    expect(filter({ path: 'name', op: 'eq', value: '*cm*' })).toMatchInlineSnapshot(`
      {
        "params": [
          "env-1",
          "%cm%",
        ],
        "sql": "SELECT t."id" AS id FROM "organization" t WHERE t.environment_id = $1 AND lower(t."name") LIKE lower($2) ORDER BY t."id" ASC LIMIT 10",
      }
    `);
  });

  it('a wildcard in the middle', () => {
    expect(filter({ path: 'name', op: 'eq', value: 'A*e' })).toMatchInlineSnapshot(`
      {
        "params": [
          "env-1",
          "A%e",
        ],
        "sql": "SELECT t."id" AS id FROM "organization" t WHERE t.environment_id = $1 AND lower(t."name") LIKE lower($2) ORDER BY t."id" ASC LIMIT 10",
      }
    `);
  });

  it('which wildcard values are a prefix alone: one * at the end, after something other than U+10FFFF', () => {
    expect(['Ac*', 'a\u{10FFFF}*', '%*', '\\*'].map(prefixLiteral)).toEqual(['Ac', 'a\u{10FFFF}', '%', '\\']);
    expect(['*', 'Ac', '*Ac*', 'A*c*', 'A*c', '\u{10FFFF}*', '\u{10FFFF}\u{10FFFF}*'].map(prefixLiteral)).toEqual([
      null,
      null,
      null,
      null,
      null,
      null,
      null,
    ]);
  });

  it('%, _ and \\ in a prefix are the prefix as written (a range, no pattern)', () => {
    expect(filter({ path: 'name', op: 'eq', value: '50%_off\\*' })).toMatchInlineSnapshot(`
      {
        "params": [
          "env-1",
          "50%_off\\",
        ],
        "sql": "SELECT t."id" AS id FROM "organization" t WHERE t.environment_id = $1 AND (lower(t."name") ~>=~ lower($2) AND lower(t."name") ~<~ text_prefix_successor(lower($2))) ORDER BY t."id" ASC LIMIT 10",
      }
    `);
  });

  it('%, _ and \\ in the value are literal characters (a backslash does not escape *)', () => {
    expect(filter({ path: 'name', op: 'eq', value: '*50%_off\\*' })).toMatchInlineSnapshot(`
      {
        "params": [
          "env-1",
          "%50\\%\\_off\\\\%",
        ],
        "sql": "SELECT t."id" AS id FROM "organization" t WHERE t.environment_id = $1 AND lower(t."name") LIKE lower($2) ORDER BY t."id" ASC LIMIT 10",
      }
    `);
  });

  it('a wildcard on a field that is not text is refused', () => {
    expect(refusal({ where: { path: 'employees', op: 'eq', value: '1*' } })).toMatchInlineSnapshot(
      `"q[employees]: wildcards apply to text fields only"`,
    );
  });
});

describe('list compiler: nested paths', () => {
  it('a to-one path is an EXISTS on the related table, scoped to the environment', () => {
    expect(filter({ path: 'country.name', op: 'eq', value: 'NL' })).toMatchInlineSnapshot(`
      {
        "params": [
          "env-1",
          "NL",
        ],
        "sql": "SELECT t."id" AS id FROM "organization" t WHERE t.environment_id = $1 AND EXISTS (SELECT 1 FROM "country" r1 WHERE r1."id" = t."country_id" AND r1.environment_id = $1 AND r1."name" = $2) ORDER BY t."id" ASC LIMIT 10",
      }
    `);
  });

  it('a relation named alone compares its id', () => {
    expect(filter({ path: 'country', op: 'in', value: ['c1', 'c2'] })).toMatchInlineSnapshot(`
      {
        "params": [
          "env-1",
          [
            "c1",
            "c2",
          ],
        ],
        "sql": "SELECT t."id" AS id FROM "organization" t WHERE t.environment_id = $1 AND EXISTS (SELECT 1 FROM "country" r1 WHERE r1."id" = t."country_id" AND r1.environment_id = $1 AND r1."id" = ANY($2)) ORDER BY t."id" ASC LIMIT 10",
      }
    `);
  });

  it('a to-many path is an EXISTS with the relation condition', () => {
    expect(filter({ path: 'visitingAddresses.city', op: 'eq', value: 'Ut*' })).toMatchInlineSnapshot(`
      {
        "params": [
          "env-1",
          "Ut",
        ],
        "sql": "SELECT t."id" AS id FROM "organization" t WHERE t.environment_id = $1 AND EXISTS (SELECT 1 FROM "address" r1 WHERE r1."organization_id" = t."id" AND r1.environment_id = $1 AND r1."kind" = 'visiting' AND (lower(r1."city") ~>=~ lower($2) AND lower(r1."city") ~<~ text_prefix_successor(lower($2)))) ORDER BY t."id" ASC LIMIT 10",
      }
    `);
  });

  it('two hops nest two EXISTS; a global table has no environment clause', () => {
    expect(filter({ path: 'country.region.name', op: 'eq', value: 'Europe' })).toMatchInlineSnapshot(`
      {
        "params": [
          "env-1",
          "Europe",
        ],
        "sql": "SELECT t."id" AS id FROM "organization" t WHERE t.environment_id = $1 AND EXISTS (SELECT 1 FROM "country" r1 WHERE r1."id" = t."country_id" AND r1.environment_id = $1 AND EXISTS (SELECT 1 FROM "region" r2 WHERE r2."id" = r1."region_id" AND r2."name" = $2)) ORDER BY t."id" ASC LIMIT 10",
      }
    `);
  });

  it('null through a to-many relation: no related row has a value (NOT EXISTS … IS NOT NULL)', () => {
    expect(filter({ path: 'visitingAddresses.city', op: 'eq', value: 'null' })).toMatchInlineSnapshot(`
      {
        "params": [
          "env-1",
        ],
        "sql": "SELECT t."id" AS id FROM "organization" t WHERE t.environment_id = $1 AND NOT EXISTS (SELECT 1 FROM "address" r1 WHERE r1."organization_id" = t."id" AND r1.environment_id = $1 AND r1."kind" = 'visiting' AND r1."city" IS NOT NULL) ORDER BY t."id" ASC LIMIT 10",
      }
    `);
  });

  it('nin through a relation: no related value is in the list (NOT EXISTS … = ANY)', () => {
    expect(filter({ path: 'visitingAddresses.country.name', op: 'nin', value: ['NL'] })).toMatchInlineSnapshot(`
      {
        "params": [
          "env-1",
          [
            "NL",
          ],
        ],
        "sql": "SELECT t."id" AS id FROM "organization" t WHERE t.environment_id = $1 AND NOT EXISTS (SELECT 1 FROM "address" r1 WHERE r1."organization_id" = t."id" AND r1.environment_id = $1 AND r1."kind" = 'visiting' AND EXISTS (SELECT 1 FROM "country" r2 WHERE r2."id" = r1."country_id" AND r2.environment_id = $1 AND r2."name" = ANY($2))) ORDER BY t."id" ASC LIMIT 10",
      }
    `);
  });

  it('a relation into a module the caller cannot read shows only its id and name', () => {
    const noHrm: ListAccess = { canRead: (m) => m !== 'hrm' };
    expect(
      compile({ where: { path: 'accountManager.name', op: 'eq', value: 'Ann' } }, organization, noHrm).pageSql,
    ).toMatchInlineSnapshot(
      `"SELECT t."id" AS id FROM "organization" t WHERE t.environment_id = $1 AND EXISTS (SELECT 1 FROM "user" r1 WHERE r1."id" = t."account_manager_id" AND r1.environment_id = $1 AND r1."name" = $2) ORDER BY t."id" ASC LIMIT 10"`,
    );
    expect(refusal({ where: { path: 'accountManager.email', op: 'eq', value: 'a@b' } }, noHrm)).toMatchInlineSnapshot(
      `"(forbidden) q[accountManager.email]: "accountManager.email" needs the read right of the hrm module"`,
    );
  });

  it('an unknown path is refused, naming it', () => {
    expect(refusal({ where: { path: 'country.nope', op: 'eq', value: 'x' } })).toMatchInlineSnapshot(
      `"q[country.nope]: unknown field "country.nope""`,
    );
  });
});

describe('list compiler: and, or', () => {
  it('OR of two comparisons', () => {
    expect(
      filter({
        or: [
          { path: 'name', op: 'eq', value: 'Acme' },
          { path: 'employees', op: 'ge', value: '100' },
        ],
      }),
    ).toMatchInlineSnapshot(`
      {
        "params": [
          "env-1",
          "Acme",
          100,
        ],
        "sql": "SELECT t."id" AS id FROM "organization" t WHERE t.environment_id = $1 AND (t."name" = $2 OR t."employee_count" >= $3) ORDER BY t."id" ASC LIMIT 10",
      }
    `);
  });

  it('AND holding an OR, parameters numbered in the order written', () => {
    expect(
      filter({
        and: [
          { path: 'archived', op: 'eq', value: 'false' },
          {
            or: [
              { path: 'country.name', op: 'eq', value: 'NL' },
              { path: 'name', op: 'eq', value: 'null' },
            ],
          },
        ],
      }),
    ).toMatchInlineSnapshot(`
      {
        "params": [
          "env-1",
          false,
          "NL",
        ],
        "sql": "SELECT t."id" AS id FROM "organization" t WHERE t.environment_id = $1 AND (t."archived" = $2 AND (EXISTS (SELECT 1 FROM "country" r1 WHERE r1."id" = t."country_id" AND r1.environment_id = $1 AND r1."name" = $3) OR t."name" IS NULL)) ORDER BY t."id" ASC LIMIT 10",
      }
    `);
  });

  it('an empty AND is TRUE and an empty OR is FALSE', () => {
    expect(filter({ and: [{ and: [] }, { or: [] }] })).toMatchInlineSnapshot(`
      {
        "params": [
          "env-1",
        ],
        "sql": "SELECT t."id" AS id FROM "organization" t WHERE t.environment_id = $1 AND (TRUE AND FALSE) ORDER BY t."id" ASC LIMIT 10",
      }
    `);
  });
});

describe('list compiler: custom fields', () => {
  it('eq on a custom field matches its value by the field name, in the environment', () => {
    expect(filter({ path: 'custom_fields.segment', op: 'eq', value: 'retail' })).toMatchInlineSnapshot(`
      {
        "params": [
          "env-1",
          "retail",
          "segment",
        ],
        "sql": "SELECT t."id" AS id FROM "organization" t WHERE t.environment_id = $1 AND EXISTS (SELECT 1 FROM "custom_field_value" cv JOIN "custom_field" cf ON cf.id = cv.custom_field_id WHERE cv.entity_id = t."id" AND cv.environment_id = $1 AND cf.environment_id = $1 AND cf.model_key = 'organization' AND cf.name = $3 AND cv.value = $2) ORDER BY t."id" ASC LIMIT 10",
      }
    `);
  });

  it('a range with a number compares numerically, only values that are numbers', () => {
    expect(filter({ path: 'customFields.size', op: 'ge', value: '10' })).toMatchInlineSnapshot(`
      {
        "params": [
          "env-1",
          10,
          "size",
        ],
        "sql": "SELECT t."id" AS id FROM "organization" t WHERE t.environment_id = $1 AND EXISTS (SELECT 1 FROM "custom_field_value" cv JOIN "custom_field" cf ON cf.id = cv.custom_field_id WHERE cv.entity_id = t."id" AND cv.environment_id = $1 AND cf.environment_id = $1 AND cf.model_key = 'organization' AND cf.name = $3 AND (CASE WHEN cv.value ~ '^-?[0-9]+(\\.[0-9]+)?$' THEN cv.value::numeric END) >= $2) ORDER BY t."id" ASC LIMIT 10",
      }
    `);
  });

  it('null on a custom field: no value row with a value', () => {
    expect(filter({ path: 'custom_fields.segment', op: 'eq', value: 'null' })).toMatchInlineSnapshot(`
      {
        "params": [
          "env-1",
          "segment",
        ],
        "sql": "SELECT t."id" AS id FROM "organization" t WHERE t.environment_id = $1 AND NOT EXISTS (SELECT 1 FROM "custom_field_value" cv JOIN "custom_field" cf ON cf.id = cv.custom_field_id WHERE cv.entity_id = t."id" AND cv.environment_id = $1 AND cf.environment_id = $1 AND cf.model_key = 'organization' AND cf.name = $2 AND cv.value IS NOT NULL) ORDER BY t."id" ASC LIMIT 10",
      }
    `);
  });

  it('a model without custom fields refuses the path', () => {
    expect(() => filter({ path: 'custom_fields.x', op: 'eq', value: '1' }, country)).toThrowErrorMatchingInlineSnapshot(
      `[ListQueryError: q[custom_fields.x]: custom-field filters are not supported on this resource]`,
    );
  });
});

describe('list compiler: sort', () => {
  it('without a sort key the page is ordered by id', () => {
    expect(compile({}).pageSql).toMatchInlineSnapshot(
      `"SELECT t."id" AS id FROM "organization" t WHERE t.environment_id = $1 AND TRUE ORDER BY t."id" ASC LIMIT 10"`,
    );
  });

  it('ascending, the id last in the same direction', () => {
    const c = compile({ orderBy: [{ path: 'name', dir: 'asc' }] });
    expect({ page: c.pageSql, order: c.orderSql }).toMatchInlineSnapshot(`
      {
        "order": "t."name" ASC, t."id" ASC",
        "page": "SELECT t."id" AS id FROM "organization" t WHERE t.environment_id = $1 AND TRUE ORDER BY t."name" ASC, t."id" ASC LIMIT 10",
      }
    `);
  });

  it('descending, the id last in the same direction', () => {
    expect(compile({ orderBy: [{ path: 'updatedAt', dir: 'desc' }] }).orderSql).toMatchInlineSnapshot(
      `"t."updated_at" DESC, t."id" DESC"`,
    );
  });

  it('several keys: the id follows the last key', () => {
    expect(
      compile({
        orderBy: [
          { path: 'archived', dir: 'desc' },
          { path: 'name', dir: 'asc' },
        ],
      }).orderSql,
    ).toMatchInlineSnapshot(`"t."archived" DESC, t."name" ASC, t."id" ASC"`);
  });

  it('the id named as a key is not added again', () => {
    expect(compile({ orderBy: [{ path: 'id', dir: 'desc' }] }).orderSql).toMatchInlineSnapshot(`"t."id" DESC"`);
  });

  it('a computed field sorts by its expression', () => {
    expect(compile({ orderBy: [{ path: 'nameLength', dir: 'asc' }] }).orderSql).toMatchInlineSnapshot(
      `"(length(t."name")) ASC, t."id" ASC"`,
    );
  });

  it('a to-one path sorts by a scalar sub-query through each relation, each scoped to the environment', () => {
    expect(compile({ orderBy: [{ path: 'country.region.name', dir: 'asc' }] }).orderSql).toMatchInlineSnapshot(
      `"(SELECT r2."name" FROM "country" r1, "region" r2 WHERE r1."id" = t."country_id" AND r1.environment_id = $1 AND r2."id" = r1."region_id" LIMIT 1) ASC, t."id" ASC"`,
    );
  });

  it('a path through a to-many relation, an unsortable field and an unknown one are refused', () => {
    expect(refusal({ orderBy: [{ path: 'visitingAddresses.city', dir: 'asc' }] })).toMatchInlineSnapshot(
      `"sort: "visitingAddresses.city" goes through a list and cannot be sorted on"`,
    );
    expect(refusal({ orderBy: [{ path: 'notes', dir: 'asc' }] })).toMatchInlineSnapshot(
      `"sort: unknown or unsortable field "notes""`,
    );
    expect(refusal({ orderBy: [{ path: 'nope', dir: 'asc' }] })).toMatchInlineSnapshot(
      `"sort: unknown or unsortable field "nope""`,
    );
  });
});

describe('list compiler: limit, offset, count', () => {
  it('the first page writes its limit as a literal and has a statement to select its rows from', () => {
    const c = compile({ where: { path: 'name', op: 'eq', value: 'Acme' }, limit: 25 });
    expect({ page: c.pageSql, params: c.pageParams, firstPageFrom: c.firstPageFrom }).toMatchInlineSnapshot(`
      {
        "firstPageFrom": "FROM "organization" t WHERE t.environment_id = (SELECT $1::text) AND t."name" = (SELECT $2::text) ORDER BY t."id" ASC LIMIT 25",
        "page": "SELECT t."id" AS id FROM "organization" t WHERE t.environment_id = $1 AND t."name" = $2 ORDER BY t."id" ASC LIMIT 25",
        "params": [
          "env-1",
          "Acme",
        ],
      }
    `);
  });

  it('a later page binds limit and offset as parameters, after the filter', () => {
    const c = compile({ where: { path: 'name', op: 'eq', value: 'Acme' }, limit: 25, offset: 50 });
    expect({ page: c.pageSql, params: c.pageParams, firstPageFrom: c.firstPageFrom }).toMatchInlineSnapshot(`
      {
        "firstPageFrom": null,
        "page": "SELECT t."id" AS id FROM "organization" t WHERE t.environment_id = $1 AND t."name" = $2 ORDER BY t."id" ASC LIMIT $3 OFFSET $4",
        "params": [
          "env-1",
          "Acme",
          25,
          50,
        ],
      }
    `);
  });

  it('a first page beyond the literal bound binds its limit too', () => {
    const c = compile({ limit: 5000 });
    expect({ page: c.pageSql, params: c.pageParams }).toMatchInlineSnapshot(`
      {
        "page": "SELECT t."id" AS id FROM "organization" t WHERE t.environment_id = $1 AND TRUE ORDER BY t."id" ASC LIMIT $2 OFFSET $3",
        "params": [
          "env-1",
          5000,
          0,
        ],
      }
    `);
  });

  it('the count has the page filter, no order and no page parameters', () => {
    const c = compile({
      where: { path: 'employees', op: 'gt', value: '10' },
      orderBy: [{ path: 'name', dir: 'desc' }],
      limit: 25,
      offset: 50,
      count: true,
    });
    expect({ count: c.countSql, params: c.countParams }).toMatchInlineSnapshot(`
      {
        "count": "SELECT count(*)::int AS count FROM "organization" t WHERE t.environment_id = $1 AND t."employee_count" > $2",
        "params": [
          "env-1",
          10,
        ],
      }
    `);
  });
});
