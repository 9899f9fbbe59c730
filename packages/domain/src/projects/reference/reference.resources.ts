import type { Models, SqlModel } from '@bo/db';
import { v2DateTime, v3DateTime } from '../../shared/format.js';
import type { ResourceDefinition } from '../../shared/resources/definition.js';
import { projectStatusSql } from '../project/project.sql.js';

/** v2 projects/projectstatus (read-only; reference: ProjectStatus, plus is_closed). */
export const projectStatusResource: ResourceDefinition<Models.ProjectStatusModel> = {
  name: 'projects/projectstatus',
  entityType: 'projectstatus',
  module: 'projects',
  sql: projectStatusSql,
  defaultSort: [{ path: 'position', dir: 'asc' }],
  load: (db, ids) => db.projectStatus.findMany({ where: { id: { in: ids } } }),
  views: {
    v2: (s) => ({
      id: s.id,
      label: s.label,
      color: s.color,
      is_closed: s.isClosed,
      created_at: v2DateTime(s.createdAt),
      updated_at: v2DateTime(s.updatedAt),
    }),
    v3: (s) => ({
      id: s.id,
      label: s.label,
      color: s.color,
      isClosed: s.isClosed,
      createdAt: v3DateTime(s.createdAt),
      updatedAt: v3DateTime(s.updatedAt),
    }),
  },
  remove: false,
};

const projectFilterSql: SqlModel = {
  table: 'project_filter',
  fields: {
    id: { column: 'id', type: 'id' },
    name: { column: 'name', type: 'string' },
    key: { column: 'key', type: 'string' },
    created_at: { column: 'created_at', type: 'datetime' },
    updated_at: { column: 'updated_at', type: 'datetime' },
  },
};

/** v2 projects/projectfilters (read-only; reference: Filter). */
export const projectFilterResource: ResourceDefinition<Models.ProjectFilterModel> = {
  name: 'projects/projectfilters',
  entityType: 'projectfilter',
  module: 'projects',
  sql: projectFilterSql,
  defaultSort: [{ path: 'created_at', dir: 'asc' }],
  load: (db, ids) => db.projectFilter.findMany({ where: { id: { in: ids } } }),
  views: {
    v2: (f) => ({ id: f.id, name: f.name, key: f.key, values: f.values }),
    v3: (f) => ({ id: f.id, name: f.name, key: f.key, values: f.values }),
  },
  remove: false,
};
