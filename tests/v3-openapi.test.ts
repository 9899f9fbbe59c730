import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, startTestService, type TestService } from './support/service.js';

let t: TestService;
let anonymous: ApiClient;

beforeAll(async () => {
  t = await startTestService();
  anonymous = (await t.environment('acme')).withToken(null);
});
afterAll(() => t?.stop());

const CONTRACT_ROWS: [string, string, string, string[]][] = [
  ['get', '/invoiceDraftRequest.get/{id}', '200', ['403', '404']],
  ['get', '/project.get/{id}', '200', ['403', '404']],
  ['post', '/projectService.acquisition.create', '201', ['400', '403', '422']],
  ['post', '/projectService.acquisition.edit', '201', ['400', '403', '404', '422']],
  ['get', '/projectService.advance.configuration', '200', ['403', '404', '500']],
  ['post', '/projectService.advance.create', '201', ['400', '403', '422']],
  ['post', '/projectService.advance.edit', '201', ['400', '403', '422']],
  ['post', '/projectService.build', '200', ['400', '403', '422']],
  ['post', '/projectService.build.acquisition', '200', ['400', '403', '422']],
  ['post', '/projectService.create', '201', ['400', '403', '422']],
  ['post', '/projectService.edit', '200', ['400', '403', '404', '422']],
];

describe('the v3 OpenAPI document', () => {
  it('is served without a token at /api/v3/docs.json and is a valid OpenAPI 3.1 document', async () => {
    const res = await anonymous.v3('GET', '/docs.json');
    expect(res.status).toBe(200);
    const validator = new Validator();
    const result = await validator.validate(res.body as Parameters<Validator['validate']>[0]);
    expect(result.errors ?? [], JSON.stringify(result.errors)).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('has every row of the contract table with its success status and error statuses, under the contract schema names', async () => {
    const doc = (await anonymous.v3('GET', '/docs.json')).body as {
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
      components: { schemas: Record<string, unknown> };
    };
    for (const [method, path, success, errors] of CONTRACT_ROWS) {
      const op = doc.paths[path]?.[method];
      expect(op, `${method} ${path}`).toBeDefined();
      // beside the contract's statuses, every operation documents the guard's 401 and 429 (the rate limit's fields)
      expect(Object.keys(op?.responses ?? {}).sort()).toEqual([...new Set([success, ...errors, '401', '429'])].sort());
    }
    for (const name of [
      'Invoice.Draft.Request.Status',
      'Project.ProjectOutput',
      'Project.Service.CreateAcquisitionProjectService',
      'Project.Service.EditAcquisitionProjectService',
      'Project.AcquisitionService',
      'Project.Service.AdvanceServiceConfiguration',
      'Project.Service.CreateAdvanceProjectService',
      'Project.Service.EditAdvanceProjectService',
      'Project.AdvanceService',
      'Project.Service.BuildProjectService',
      'Project.Service.BuildProjectAcquisitionService',
      'Project.BuiltService',
      'Project.Service.CreateProjectService',
      'Project.Service.EditProjectService',
      'Project.InvoiceableService',
      'Error',
      'ConstraintViolation',
    ]) {
      expect(doc.components.schemas[name], name).toBeDefined();
    }
    expect(doc.components.schemas['Project.Service.BuildProjectService']).toMatchObject({
      required: ['projectId', 'defaultServiceId'],
      additionalProperties: false,
    });
  });

  it('a browsable reference page is served without a token at /api/v3/docs', async () => {
    const res = await anonymous.v3('GET', '/docs');
    expect(res.status).toBe(200);
    expect(String(res.headers['content-type'])).toMatch(/^text\/html/);
    expect(res.text).toContain('/api/v3/docs.json');
    // the viewer comes from the service itself: the page works with no internet
    expect(res.text).toContain('/api/v3/docs/standalone.js');
    expect(res.text).not.toMatch(/<script[^>]+src="https?:/);
    const script = await anonymous.v3('GET', '/docs/standalone.js');
    expect(script.status).toBe(200);
    expect(String(script.headers['content-type'])).toContain('javascript');
    expect(script.text.length).toBeGreaterThan(100_000);
  });
});
