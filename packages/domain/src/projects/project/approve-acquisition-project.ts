import type { z } from 'zod';
import { BusinessRuleError, NotFoundError } from '../../shared/errors.js';
import { recordEvent } from '../../shared/events.js';
import type { UserContext } from '../../trpc.js';
import { projectServiceResource } from '../service/project-service.resource.js';
import { loadProjectServices } from '../service/project-service.row.js';
import { loadProjects, projectV3 } from './project.resource.js';
import type { ApproveAcquisitionProject, ProjectOutputShape } from './project.v3.schema.js';

/** project.acquisition.approve: the project was won; it and its acquisition services move into execution. */
export async function approveAcquisitionProject(
  ctx: UserContext,
  input: z.output<typeof ApproveAcquisitionProject>,
): Promise<ProjectOutputShape> {
  return ctx.db.$transaction(async (tx) => {
    const rows = await tx.$queryRawUnsafe<{ phase: string }[]>(
      'SELECT phase FROM project WHERE id = $1 AND environment_id = $2 FOR UPDATE',
      input.projectId,
      ctx.principal.environmentId,
    );
    const current = rows[0];
    if (!current) throw new NotFoundError('project', input.projectId);
    if (current.phase !== 'acquisition')
      throw new BusinessRuleError(`project ${input.projectId} is not in acquisition; there is nothing to approve`);
    const now = ctx.clock.now();
    await tx.project.update({ where: { id: input.projectId }, data: { phase: 'execution', updatedAt: now } });
    const moved = await tx.projectService.findMany({
      where: { projectId: input.projectId, kind: 'acquisition', phase: 'acquisition' },
      select: { id: true },
    });
    await tx.projectService.updateMany({
      where: { id: { in: moved.map((s) => s.id) } },
      data: { phase: 'execution', updatedAt: now },
    });
    // each moved service changed too: subscribers hear of every one
    for (const service of await loadProjectServices(
      tx,
      moved.map((s) => s.id),
    )) {
      await recordEvent(tx, {
        entityType: projectServiceResource.entityType,
        entityId: service.id,
        change: 'updated',
        data: projectServiceResource.views.v3(service),
      });
    }
    const [project] = await loadProjects(tx, [input.projectId], ctx.principal.environmentId);
    if (!project) throw new NotFoundError('project', input.projectId);
    const shaped = projectV3(project);
    await recordEvent(tx, { entityType: 'project', entityId: project.id, change: 'updated', data: shaped });
    return shaped;
  });
}
