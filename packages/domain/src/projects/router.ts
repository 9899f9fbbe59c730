import { z } from 'zod';
import { purchaseType } from '../costs/coststype/coststype.entity.js';
import { areaDocumentRouters, DOCUMENT_AREAS } from '../documents/area-documents.js';
import {
  createEntity,
  entityCreate,
  entityCreateCommand,
  entityDelete,
  entityQueries,
  entityUpdate,
  entityUpdateCommand,
  getEntity,
  updateEntity,
} from '../shared/entity/index.js';
import { moduleProcedure, router } from '../trpc.js';
import { assignmentRouter } from './assignment/assignment.router.js';
import { approveAcquisitionProject } from './project/approve-acquisition-project.js';
import { project } from './project/project.entity.js';
import { approveAcquisitionInput, createProjectInput, updateProjectInput } from './project/project.schema.js';
import { createProject, deleteProject, updateProject } from './project/project.write.js';
import { createProjectEmployee } from './projectemployee/create-projectemployee.js';
import { projectEmployee } from './projectemployee/projectemployee.entity.js';
import { createProjectEmployeeInput } from './projectemployee/projectemployee.schema.js';
import { purchase } from './purchase/purchase.entity.js';
import { projectFilter } from './reference/projectfilter.entity.js';
import {
  assignmentStatus,
  createAssignmentStatusInput,
  updateAssignmentStatusInput,
} from './reference/assignmentstatus.entity.js';
import { createAssignmentStatus, updateAssignmentStatus } from './reference/assignmentstatus.write.js';
import { projectStatus } from './reference/projectstatus.entity.js';
import {
  advanceServiceConfigurationSchema,
  getAdvanceServiceConfiguration,
} from './service/commands/advance-service-configuration.js';
import { buildProjectService, builtServiceSchema } from './service/commands/build-project-service.js';
import { createAcquisitionService } from './service/create-acquisition-service.js';
import { createAdvanceService } from './service/create-advance-service.js';
import { createProjectService } from './service/create-project-service.js';
import { deleteProjectService } from './service/delete-project-service.js';
import { duplicateProjectService } from './service/duplicate-project-service.js';
import { editAcquisitionService } from './service/edit-acquisition-service.js';
import { editAdvanceService, missingAdvanceService } from './service/edit-advance-service.js';
import { editProjectService } from './service/edit-project-service.js';
import {
  planningBudgetInput,
  planningBudgetSchema,
  projectPlanningBudget,
  servicePlanningBudget,
} from './service/planning-budget.js';
import { projectService } from './service/project-service.entity.js';
import {
  buildProjectServiceInput,
  createAcquisitionServiceInput,
  createAdvanceServiceInput,
  createProjectServiceInput,
  duplicateProjectServiceInput,
  updateAcquisitionServiceInput,
  updateAdvanceServiceInput,
  updateProjectServiceInput,
} from './service/project-service.schema.js';
import { updateProjectService } from './service/update-project-service.js';

const write = () => moduleProcedure('projects', 'write');
const read = () => moduleProcedure('projects', 'read');
const id = z.string().min(1);

export const projectsRouter = router({
  /** the documents of projects and their document types, under the projects right */
  ...areaDocumentRouters(DOCUMENT_AREAS.projects),
  assignmentstatus: router({
    ...entityQueries(assignmentStatus),
    create: entityCreate(assignmentStatus, createAssignmentStatusInput, createAssignmentStatus),
    update: entityUpdate(assignmentStatus, updateAssignmentStatusInput, updateAssignmentStatus),
  }),
  project: router({
    ...entityQueries(project),
    create: entityCreate(project, createProjectInput, createProject),
    update: entityUpdate(project, updateProjectInput, updateProject),
    delete: entityDelete(project, deleteProject),
    planningBudget: read()
      .input(z.object({ id, data: planningBudgetInput }))
      .output(planningBudgetSchema)
      .query(({ ctx, input }) => projectPlanningBudget(ctx, input.id, input.data)),
  }),
  service: router({
    ...entityQueries(projectService),
    create: entityCreate(projectService, createProjectServiceInput, createProjectService),
    update: entityUpdate(projectService, updateProjectServiceInput, updateProjectService),
    delete: entityDelete(projectService, deleteProjectService),
    duplicate: write()
      .input(z.object({ id, data: duplicateProjectServiceInput }))
      .output(z.object({ id: z.string() }))
      .mutation(({ ctx, input }) =>
        createEntity(ctx, projectService, duplicateProjectService, { ...input.data, sourceId: input.id }),
      ),
    planningBudget: read()
      .input(z.object({ id, data: planningBudgetInput }))
      .output(planningBudgetSchema)
      .query(({ ctx, input }) => servicePlanningBudget(ctx, input.id, input.data)),
  }),
  assignment: assignmentRouter,
  projectemployee: router({
    ...entityQueries(projectEmployee),
    create: entityCreate(projectEmployee, createProjectEmployeeInput, createProjectEmployee),
    delete: entityDelete(projectEmployee),
  }),
  purchase: router(entityQueries(purchase)),
  projectstatus: router(entityQueries(projectStatus)),
  projectfilters: router(entityQueries(projectFilter)),
  purchasetype: router(entityQueries(purchaseType)),

  // commands and queries beyond CRUD
  acquisition: router({
    approve: write()
      .input(approveAcquisitionInput)
      .output(project.schema)
      .mutation(async ({ ctx, input }) => {
        await updateEntity(ctx, project, approveAcquisitionProject, input.projectId, {});
        return getEntity(ctx, project, input.projectId);
      }),
  }),
  projectService: router({
    create: entityCreateCommand(projectService, createProjectServiceInput, createProjectService),
    edit: entityUpdateCommand(projectService, updateProjectServiceInput, editProjectService),
    build: write()
      .input(buildProjectServiceInput)
      .output(builtServiceSchema)
      .mutation(({ ctx, input }) => buildProjectService(ctx, input, 'invoiceable')),
    buildAcquisition: write()
      .input(buildProjectServiceInput)
      .output(builtServiceSchema)
      .mutation(({ ctx, input }) => buildProjectService(ctx, input, 'acquisition')),
    acquisition: router({
      create: entityCreateCommand(projectService, createAcquisitionServiceInput, createAcquisitionService),
      edit: entityUpdateCommand(projectService, updateAcquisitionServiceInput, editAcquisitionService),
    }),
    advance: router({
      configuration: read()
        .input(z.object({}))
        .output(advanceServiceConfigurationSchema)
        .query(({ ctx }) => getAdvanceServiceConfiguration(ctx)),
      create: entityCreateCommand(projectService, createAdvanceServiceInput, createAdvanceService),
      edit: entityUpdateCommand(projectService, updateAdvanceServiceInput, editAdvanceService, missingAdvanceService),
    }),
  }),
});
