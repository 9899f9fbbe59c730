import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceData, v2Create } from './support/projects.js';
import { type ApiClient, startTestService, type TestService } from './support/service.js';
import { databaseFingerprint } from './support/snapshot.js';
import type { Problem } from './support/v3.js';

let t: TestService;
let acme: ApiClient;
const ids: Record<string, string> = {};

beforeAll(async () => {
  t = await startTestService();
  acme = await t.environment('acme');
  const ref = await referenceData(acme);
  ids.project = await v2Create(acme, '/projects/project', { name: 'P' });
  ids.acquisitionProject = await v2Create(acme, '/projects/project', { name: 'A', phase: 'acquisition' });
  ids.defaultService = ref.defaultServices[0]?.id as string;
  ids.hourType = ref.hourTypes[0]?.id as string;
  const make = async (path: string, body: Record<string, unknown>) => {
    const res = await acme.v3('POST', path, body);
    expect(res.status, res.text).toBe(201);
    return (res.body as { id: string }).id;
  };
  ids.service = await make('/projectService.create', { projectId: ids.project, name: 'S', invoiceMethod: 'fixed_price' });
  ids.acquisitionService = await make('/projectService.acquisition.create', { projectId: ids.acquisitionProject, name: 'A' });
  ids.advanceService = await make('/projectService.advance.create', { projectId: ids.project, price: 10 });
});
afterAll(() => t?.stop());

/** Per command: a valid body, a property given the wrong JSON type, and a required property left blank. */
interface CommandCase {
  endpoint: string;
  valid: () => Record<string, unknown>;
  wrongType: [string, unknown];
  blank: [string, unknown];
}

const commands: CommandCase[] = [
  {
    endpoint: 'projectService.create',
    valid: () => ({ projectId: ids.project, name: 'S', invoiceMethod: 'fixed_price' }),
    wrongType: ['trackHours', 'yes'],
    blank: ['name', ''],
  },
  {
    endpoint: 'projectService.edit',
    valid: () => ({ id: ids.service, name: 'S2' }),
    wrongType: ['price', '12'],
    blank: ['name', ' '],
  },
  {
    endpoint: 'projectService.acquisition.create',
    valid: () => ({ projectId: ids.acquisitionProject, name: 'A' }),
    wrongType: ['hourTypes', {}],
    blank: ['name', ''],
  },
  {
    endpoint: 'projectService.acquisition.edit',
    valid: () => ({ id: ids.acquisitionService, name: 'A2' }),
    wrongType: ['startDate', 20260101],
    blank: ['name', ''],
  },
  {
    endpoint: 'projectService.advance.create',
    valid: () => ({ projectId: ids.project, price: 5 }),
    wrongType: ['price', '5'],
    blank: ['projectId', ''],
  },
  {
    endpoint: 'projectService.advance.edit',
    valid: () => ({ id: ids.advanceService, price: 6 }),
    wrongType: ['explanation', 5],
    blank: ['id', ''],
  },
  {
    endpoint: 'projectService.build',
    valid: () => ({ projectId: ids.project, defaultServiceId: ids.defaultService }),
    wrongType: ['projectId', 7],
    blank: ['defaultServiceId', ''],
  },
  {
    endpoint: 'projectService.build.acquisition',
    valid: () => ({ projectId: ids.acquisitionProject, defaultServiceId: ids.defaultService }),
    wrongType: ['defaultServiceId', null],
    blank: ['projectId', ''],
  },
  {
    endpoint: 'project.acquisition.approve',
    valid: () => ({ projectId: ids.acquisitionProject }),
    wrongType: ['projectId', true],
    blank: ['projectId', ''],
  },
  {
    endpoint: 'invoiceDraftRequest.create',
    valid: () => ({ projectIds: [ids.project] }),
    wrongType: ['projectIds', 'all'],
    blank: ['projectIds', []],
  },
];

async function unchanged(run: () => Promise<void>) {
  const before = await databaseFingerprint(t.db);
  await run();
  expect(await databaseFingerprint(t.db)).toEqual(before);
}

describe.each(commands)('bad input to $endpoint', (c) => {
  const post = (body: unknown, headers?: Record<string, string>) => acme.v3('POST', `/${c.endpoint}`, body, { headers });

  it('malformed JSON, a non-object body and the wrong content type are refused; nothing changes', async () => {
    await unchanged(async () => {
      const malformed = await post('{"projectId": ', { 'content-type': 'application/json' });
      expect(malformed.status).toBe(400);
      expect((malformed.body as Problem).detail).toContain('JSON');
      expect((await post([c.valid()])).status).toBe(400);
      expect((await post('"text"', { 'content-type': 'application/json' })).status).toBe(400);
      expect((await post(JSON.stringify(c.valid()), { 'content-type': 'text/plain' })).status).toBe(415);
    });
  });

  it('a wrong type is 400 and names the property; nothing changes', async () => {
    const [field, value] = c.wrongType;
    await unchanged(async () => {
      const res = await post({ ...c.valid(), [field]: value });
      expect(res.status, res.text).toBe(400);
      expect((res.body as Problem).violations?.map((v) => v.propertyPath)).toContain(field);
    });
  });

  it('unknown properties are 400 and each is named; nothing changes', async () => {
    await unchanged(async () => {
      const res = await post({ ...c.valid(), colour: 'red', nested: { a: 1 } });
      expect(res.status, res.text).toBe(400);
      expect((res.body as Problem).violations?.map((v) => v.propertyPath).sort()).toEqual(['colour', 'nested']);
      expect((res.body as Problem).detail).toContain('colour');
    });
  });

  it('a blank required property is 422 with one violation for it; nothing changes', async () => {
    const [field, value] = c.blank;
    await unchanged(async () => {
      const res = await post({ ...c.valid(), [field]: value });
      expect(res.status, res.text).toBe(422);
      const p = res.body as Problem;
      expect(p.type).toMatch(/^\/validation_errors\//);
      expect(p.violations?.map((v) => v.propertyPath)).toEqual([field]);
    });
  });
});

describe('bad input to the queries', () => {
  it.each([
    ['/employee.list?itemsPerPage=31', 400, 'itemsPerPage'],
    ['/employee.list?itemsPerPage=0', 400, 'itemsPerPage'],
    ['/employee.list?page=0', 400, 'page'],
    ['/employee.list?page=-1', 400, 'page'],
    ['/employee.list?page=one', 400, 'page'],
    ['/employee.list?salary=1', 400, 'salary'],
    ['/project.get/x?select=name', 400, 'select'],
    ['/projectService.advance.configuration?x=1', 400, 'x'],
    ['/project.get', 404, 'needs an id'],
    ['/projectService.get', 404, 'needs an id'],
    ['/invoiceDraftRequest.get', 404, 'needs an id'],
    ['/projectService.advance.configuration/abc', 404, 'takes no id'],
  ])('GET %s answers %i naming %s', async (path, status, mentions) => {
    await unchanged(async () => {
      const res = await acme.v3('GET', path);
      expect(res.status, res.text).toBe(status);
      expect((res.body as Problem).detail).toContain(mentions);
    });
  });

  it('a command called with GET and a query called with POST are 405', async () => {
    expect((await acme.v3('GET', '/projectService.create')).status).toBe(405);
    expect((await acme.v3('POST', '/employee.list', {})).status).toBe(405);
  });
});

describe('bad input to v2 projects resources', () => {
  it.each([
    ['POST', '/projects/service', { project_id: 'p', name: 'S', price: 'ten' }, 'price'],
    ['POST', '/projects/service', { name: 'No project' }, 'project_id'],
    ['POST', '/projects/service', { project_id: 'project:missing', name: 'S' }, 'project_id'],
    ['POST', '/projects/service', { project_id: 'project:x', name: 'S', subscription_cycle: 'Weekly' }, 'subscription_cycle'],
    ['POST', '/projects/service', { project_id: 'project:x', name: 'S', start_date: '2026-02-31' }, 'start_date'],
    ['POST', '/projects/project', { name: '' }, 'name'],
    ['POST', '/projects/project', { name: 'X', billable: 'yes' }, 'billable'],
    ['POST', '/projects/project', { name: 'X', project_status_id: 'projectstatus:missing' }, 'project_status_id'],
    ['POST', '/projects/assignment', { projecthourstype_id: 'projecthourtype:missing' }, 'projecthourstype_id'],
    ['POST', '/hours/hourstype', { label: 'X', tariff: 'cheap' }, 'tariff'],
    ['POST', '/services/defaultservice', { name: 'X', hour_types: [{ hourtype_id: 'itemtype:x' }] }, 'hour_types.0.hourtype_id'],
  ])('%s %s %j is a 400 naming %s, and changes nothing', async (method, path, body, mentions) => {
    await unchanged(async () => {
      const res = await acme.v2(method, path, body);
      expect(res.status, res.text).toBe(400);
      expect(JSON.stringify((res.body as { errors: string[] }).errors)).toContain(mentions);
    });
  });

  it('malformed JSON on POST projects/service is a 400', async () => {
    await unchanged(async () => {
      const res = await acme.v2('POST', '/projects/service', '{"name":', { headers: { 'content-type': 'application/json' } });
      expect(res.status).toBe(400);
    });
  });
});
