import type { z } from 'zod';
import { employeeV3Schema } from './hrm/employee/employee.v3.schema.js';
import { ApproveAcquisitionProject, ProjectOutput } from './projects/project/project.v3.schema.js';
import {
  AcquisitionService,
  AdvanceService,
  AdvanceServiceConfiguration,
  BuildProjectAcquisitionService,
  BuildProjectService,
  BuiltService,
  CreateAcquisitionProjectService,
  CreateAdvanceProjectService,
  CreateProjectService,
  EditAcquisitionProjectService,
  EditAdvanceProjectService,
  EditProjectService,
  InvoiceableService,
} from './projects/service/project-service.v3.schema.js';

/**
 * The named v3 schemas, under the contract's names where it gives one; the v3
 * adapter turns them into the OpenAPI document. Requests are what the commands
 * parse, responses what the use cases return: the document cannot drift from the code.
 */
export const v3Schemas: Record<string, z.ZodType> = {
  'Project.ProjectOutput': ProjectOutput,
  'Project.Acquisition.Approve': ApproveAcquisitionProject,
  'Project.Service.CreateAcquisitionProjectService': CreateAcquisitionProjectService,
  'Project.Service.EditAcquisitionProjectService': EditAcquisitionProjectService,
  'Project.AcquisitionService': AcquisitionService,
  'Project.Service.AdvanceServiceConfiguration': AdvanceServiceConfiguration,
  'Project.Service.CreateAdvanceProjectService': CreateAdvanceProjectService,
  'Project.Service.EditAdvanceProjectService': EditAdvanceProjectService,
  'Project.AdvanceService': AdvanceService,
  'Project.Service.BuildProjectService': BuildProjectService,
  'Project.Service.BuildProjectAcquisitionService': BuildProjectAcquisitionService,
  'Project.BuiltService': BuiltService,
  'Project.Service.CreateProjectService': CreateProjectService,
  'Project.Service.EditProjectService': EditProjectService,
  'Project.InvoiceableService': InvoiceableService,
  'Hrm.Employee': employeeV3Schema,
};
