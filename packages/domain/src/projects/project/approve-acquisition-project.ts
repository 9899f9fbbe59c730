import type { EntityUpdate } from '../../shared/entity/index.js';
import { BusinessRuleError } from '../../shared/errors.js';
import { recordEvent } from '../../shared/events.js';
import { projectService } from '../service/project-service.entity.js';

/**
 * project.acquisition.approve: the project was won; it and its acquisition services
 * move into execution. The project is locked and its event recorded by the generic
 * update; each moved service changed too, so subscribers hear of every one.
 */
export const approveAcquisitionProject: EntityUpdate<Record<string, never>> = {
  async run({ tx, sql, now }, id) {
    const current = await tx.project.findUniqueOrThrow({ where: { id }, select: { phase: true } });
    if (current.phase !== 'acquisition') {
      throw new BusinessRuleError(`project ${id} is not in acquisition; there is nothing to approve`);
    }
    await tx.project.update({ where: { id }, data: { phase: 'execution', updatedAt: now } });
    const moved = await tx.projectService.findMany({
      where: { projectId: id, kind: 'acquisition', phase: 'acquisition' },
      select: { id: true },
    });
    await tx.projectService.updateMany({
      where: { id: { in: moved.map((s) => s.id) } },
      data: { phase: 'execution', updatedAt: now },
    });
    const services = await projectService.loader.byIds(
      sql,
      moved.map((s) => s.id),
    );
    for (const service of services) {
      const data = JSON.parse(JSON.stringify(service)) as Record<string, unknown>;
      await recordEvent(sql, { entityType: projectService.type, entityId: service.id, change: 'updated', data });
    }
  },
};
