import { z } from 'zod';
import { purchaseTypeResource } from '../costs/coststype/coststype.resource.js';
import type { AnyResource } from '../shared/resources/definition.js';
import { resourceRouter } from '../shared/resources/router.js';
import { moduleProcedure, router } from '../trpc.js';
import { assignmentResource } from './assignment/assignment.resource.js';
import { approveAcquisitionProject } from './project/approve-acquisition-project.js';
import { projectResource } from './project/project.resource.js';
import { ApproveAcquisitionProject } from './project/project.v3.schema.js';
import { projectEmployeeResource } from './projectemployee/projectemployee.resource.js';
import { purchaseResource } from './purchase/purchase.resource.js';
import { projectFilterResource, projectStatusResource } from './reference/reference.resources.js';
import { getAdvanceServiceConfiguration } from './service/commands/advance-service-configuration.js';
import { buildProjectService } from './service/commands/build-project-service.js';
import { createAcquisitionService } from './service/commands/create-acquisition-service.js';
import { createAdvanceService } from './service/commands/create-advance-service.js';
import { createProjectService } from './service/commands/create-project-service.js';
import { editAcquisitionService } from './service/commands/edit-acquisition-service.js';
import { editAdvanceService } from './service/commands/edit-advance-service.js';
import { editProjectService } from './service/commands/edit-project-service.js';
import { projectServiceResource } from './service/project-service.resource.js';
import {
  BuildProjectAcquisitionService,
  BuildProjectService,
  CreateAcquisitionProjectService,
  CreateAdvanceProjectService,
  CreateProjectService,
  EditAcquisitionProjectService,
  EditAdvanceProjectService,
  EditProjectService,
} from './service/project-service.v3.schema.js';

export const projectsResources: AnyResource[] = [
  projectResource,
  projectServiceResource,
  assignmentResource,
  projectEmployeeResource,
  purchaseResource,
  projectStatusResource,
  projectFilterResource,
  purchaseTypeResource,
];

const write = () => moduleProcedure('projects', 'write');
const read = () => moduleProcedure('projects', 'read');

export const projectsRouter = router({
  project: resourceRouter(projectResource),
  service: resourceRouter(projectServiceResource),
  assignment: resourceRouter(assignmentResource),
  projectemployee: resourceRouter(projectEmployeeResource),
  purchase: resourceRouter(purchaseResource),
  projectstatus: resourceRouter(projectStatusResource),
  projectfilters: resourceRouter(projectFilterResource),
  purchasetype: resourceRouter(purchaseTypeResource),

  // v3 commands and queries (endpoint names in apps/api-v3/src/endpoints.ts)
  acquisition: router({
    approve: write()
      .input(ApproveAcquisitionProject)
      .mutation(({ ctx, input }) => approveAcquisitionProject(ctx, input)),
  }),
  projectService: router({
    create: write()
      .input(CreateProjectService)
      .mutation(({ ctx, input }) => createProjectService(ctx, input)),
    edit: write()
      .input(EditProjectService)
      .mutation(({ ctx, input }) => editProjectService(ctx, input)),
    build: write()
      .input(BuildProjectService)
      .mutation(({ ctx, input }) => buildProjectService(ctx, input, 'invoiceable')),
    buildAcquisition: write()
      .input(BuildProjectAcquisitionService)
      .mutation(({ ctx, input }) => buildProjectService(ctx, input, 'acquisition')),
    acquisition: router({
      create: write()
        .input(CreateAcquisitionProjectService)
        .mutation(({ ctx, input }) => createAcquisitionService(ctx, input)),
      edit: write()
        .input(EditAcquisitionProjectService)
        .mutation(({ ctx, input }) => editAcquisitionService(ctx, input)),
    }),
    advance: router({
      configuration: read()
        .input(z.object({}).strict())
        .query(({ ctx }) => getAdvanceServiceConfiguration(ctx)),
      create: write()
        .input(CreateAdvanceProjectService)
        .mutation(({ ctx, input }) => createAdvanceService(ctx, input)),
      edit: write()
        .input(EditAdvanceProjectService)
        .mutation(({ ctx, input }) => editAdvanceService(ctx, input)),
    }),
  }),
});
