import type { EntityUpdate } from '../../shared/entity/index.js';
import { BusinessRuleError } from '../../shared/errors.js';
import { recordEventOfRow } from '../../shared/events.js';
import { projectService } from '../service/project-service.entity.js';

/**
 * project.acquisition.approve: the project was won; it and its acquisition services
 * move into execution. The project is locked and its event recorded by the generic
 * update; each moved service changed too, so subscribers hear of every one.
 */
export const approveAcquisitionProject: EntityUpdate<Record<string, never>> = {
  async run({ sql, now }, id) {
    // one statement: the project (locked by the update) moves only from acquisition, and its
    // acquisition services with it; a project in execution moves nothing
    const [moved] = await sql.write<{ approved: boolean; services: string[] }>(
      `WITH p AS (
         UPDATE project SET phase = 'execution', updated_at = $3
          WHERE environment_id = $1 AND id = $2 AND phase = 'acquisition' RETURNING id),
       s AS (
         UPDATE project_service SET phase = 'execution', updated_at = $3
          WHERE environment_id = $1 AND project_id IN (SELECT id FROM p) AND kind = 'acquisition' AND phase = 'acquisition'
          RETURNING id, created_at)
       SELECT EXISTS (SELECT 1 FROM p) AS approved,
              COALESCE((SELECT array_agg(id ORDER BY created_at, id) FROM s), '{}') AS services`,
      [id, now],
    );
    if (!moved?.approved) {
      throw new BusinessRuleError(`project ${id} is not in acquisition; there is nothing to approve`);
    }
    for (const serviceId of moved.services) {
      // each service's event carries the service as stored, made by PostgreSQL from its row
      await recordEventOfRow(sql, {
        entityType: projectService.type,
        entityId: serviceId,
        change: 'updated',
        table: projectService.table,
        row: projectService.loader.rowJson(),
      });
    }
  },
};
