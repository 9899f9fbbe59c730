import type { SqlModel } from '@bo/db';

/** Organization and person addresses share their columns (reference: GetAddress). */
export function addressSql(table: string): SqlModel {
  return {
    table,
    fields: {
      id: { column: 'id', type: 'id' },
      type: { column: 'type', type: 'string' },
      line_1: { column: 'line_1', type: 'string' },
      line_2: { column: 'line_2', type: 'string' },
      postal_code: { column: 'postal_code', type: 'string' },
      province: { column: 'province', type: 'string' },
      locality: { column: 'locality', type: 'string' },
      country_code: { column: 'country_code', type: 'string' },
      country_id: { column: 'country_id', type: 'id' },
    },
  };
}
