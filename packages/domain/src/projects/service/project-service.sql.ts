import type { SqlModel } from '@bo/db';

export const projectServiceSql: SqlModel = {
  table: 'project_service',
  fields: {
    id: { column: 'id', type: 'id' },
    project_id: { column: 'project_id', type: 'id' },
    default_service_id: { column: 'default_service_id', type: 'id' },
    name: { column: 'name', type: 'string' },
    kind: { column: 'kind', type: 'string' },
    status: { column: 'status', type: 'string' },
    price: { column: 'price', type: 'number' },
    track_hours: { column: 'track_hours', type: 'boolean' },
    track_cost: { column: 'track_cost', type: 'boolean' },
    start_date: { column: 'start_date', type: 'date' },
    end_date: { column: 'end_date', type: 'date' },
    created_at: { column: 'created_at', type: 'datetime' },
    updated_at: { column: 'updated_at', type: 'datetime' },
  },
  relations: {
    project: {
      model: () => ({
        table: 'project',
        fields: {
          id: { column: 'id', type: 'id' },
          name: { column: 'name', type: 'string' },
          project_number: { column: 'project_number', type: 'string' },
        },
      }),
      kind: 'one',
      local: 'project_id',
      remote: 'id',
    },
  },
};
