/**
 * The v3 endpoint table: `{entity}.{action}` → what it calls in the domain.
 * Queries are GET and never change data; commands are POST with a JSON body.
 */
import type { EndpointDoc } from './types.js';

/** Endpoints not yet declared with typed procedures: they name a procedure path (being replaced, area by area). */
export type LegacyEndpoint = (
  | {
      kind: 'resourceList';
      /** resource name in the domain registry, e.g. crm/organization */
      resource: string;
      /** query parameter → filterable path; `name=` exact, `name[]=` any of several */
      filters: Record<string, string>;
      sort?: { path: string; dir: 'asc' | 'desc' }[];
    }
  | { kind: 'resourceGet'; resource: string }
  | {
      kind: 'query';
      /** tRPC procedure path, e.g. projects.projectService.get */
      procedure: string;
      /** whether the endpoint takes /{id} */
      withId: boolean;
    }
  | {
      kind: 'pagedQuery';
      procedure: string;
      filters: string[];
    }
  | {
      kind: 'command';
      procedure: string;
      /** success status: 201 for creating commands, 200 otherwise */
      status: 200 | 201;
      /** the command addresses /{id} (its input gets `id`) */
      withId?: boolean;
    }
) & { doc?: EndpointDoc };

export const legacyEndpoints: Record<string, LegacyEndpoint> = {
  // projects, project services, employees and invoice draft requests (issue 4)
  'employee.list': {
    kind: 'resourceList',
    resource: 'hrm/employee',
    filters: { name: 'name' },
    doc: { summary: 'Employees, paged', response: 'Hrm.Employee', errors: [400, 403] },
  },
  'project.get': {
    kind: 'resourceGet',
    resource: 'projects/project',
    doc: { summary: 'One project', response: 'Project.ProjectOutput', errors: [403, 404] },
  },
  'project.acquisition.approve': {
    kind: 'command',
    procedure: 'projects.acquisition.approve',
    status: 200,
    doc: {
      summary: 'Moves an acquisition project and its acquisition services into execution',
      request: 'Project.Acquisition.Approve',
      response: 'Project.ProjectOutput',
      errors: [400, 403, 404, 422],
    },
  },
  'projectService.get': {
    kind: 'resourceGet',
    resource: 'projects/service',
    doc: { summary: 'One project service, in the shape of its kind', response: 'Project.InvoiceableService', errors: [403, 404] },
  },
  'projectService.create': {
    kind: 'command',
    procedure: 'projects.projectService.create',
    status: 201,
    doc: {
      summary: 'Stores an invoiceable project service',
      request: 'Project.Service.CreateProjectService',
      response: 'Project.InvoiceableService',
      errors: [400, 403, 422],
    },
  },
  'projectService.edit': {
    kind: 'command',
    procedure: 'projects.projectService.edit',
    status: 200,
    doc: {
      summary: 'Edits an invoiceable project service',
      request: 'Project.Service.EditProjectService',
      response: 'Project.InvoiceableService',
      errors: [400, 403, 404, 422],
    },
  },
  'projectService.acquisition.create': {
    kind: 'command',
    procedure: 'projects.projectService.acquisition.create',
    status: 201,
    doc: {
      summary: 'Stores an acquisition service on a project in acquisition',
      request: 'Project.Service.CreateAcquisitionProjectService',
      response: 'Project.AcquisitionService',
      errors: [400, 403, 422],
    },
  },
  'projectService.acquisition.edit': {
    kind: 'command',
    procedure: 'projects.projectService.acquisition.edit',
    status: 201,
    doc: {
      summary: 'Edits an acquisition service',
      request: 'Project.Service.EditAcquisitionProjectService',
      response: 'Project.AcquisitionService',
      errors: [400, 403, 404, 422],
    },
  },
  'projectService.advance.configuration': {
    kind: 'query',
    procedure: 'projects.projectService.advance.configuration',
    withId: false,
    doc: {
      summary: 'Settings of advance services',
      response: 'Project.Service.AdvanceServiceConfiguration',
      errors: [403, 404, 500],
    },
  },
  'projectService.advance.create': {
    kind: 'command',
    procedure: 'projects.projectService.advance.create',
    status: 201,
    doc: {
      summary: 'Stores an advance (prepayment) service',
      request: 'Project.Service.CreateAdvanceProjectService',
      response: 'Project.AdvanceService',
      errors: [400, 403, 422],
    },
  },
  'projectService.advance.edit': {
    kind: 'command',
    procedure: 'projects.projectService.advance.edit',
    status: 201,
    doc: {
      summary: 'Edits an advance service',
      request: 'Project.Service.EditAdvanceProjectService',
      response: 'Project.AdvanceService',
      errors: [400, 403, 422],
    },
  },
  'projectService.build': {
    kind: 'command',
    procedure: 'projects.projectService.build',
    status: 200,
    doc: {
      summary: 'The configuration a service would get from a default service; stores nothing',
      request: 'Project.Service.BuildProjectService',
      response: 'Project.BuiltService',
      errors: [400, 403, 422],
    },
  },
  'projectService.build.acquisition': {
    kind: 'command',
    procedure: 'projects.projectService.buildAcquisition',
    status: 200,
    doc: {
      summary: 'The configuration an acquisition service would get from a default service; stores nothing',
      request: 'Project.Service.BuildProjectAcquisitionService',
      response: 'Project.BuiltService',
      errors: [400, 403, 422],
    },
  },
};
